package io.ramjet.protocol.message;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JMS header fields and typed properties that travel in a message's header section,
 * without the JMS API: what {@link MessagePropertiesCodec} writes and reads, and what a broker
 * sees of a message. Mutable, not thread-safe; property values are {@code null}, Boolean, Byte,
 * Short, Integer, Long, Float, Double or String.
 *
 * <p>JMSDestination, JMSRedelivered and JMSXDeliveryCount are not here: the record carries the
 * destination and the broker supplies the delivery state when it hands a message out.
 */
public final class MessageHeaders {

    /** {@link #replyToKind()} values. */
    public static final byte NO_REPLY_TO = 0, QUEUE = 1, TOPIC = 2, TEMPORARY_QUEUE = 3, TEMPORARY_TOPIC = 4;

    /** JMS delivery modes, as jakarta.jms.DeliveryMode numbers them. */
    public static final int NON_PERSISTENT = 1, PERSISTENT = 2;

    /** JMSPriority of a message that sets none (Message.DEFAULT_PRIORITY). */
    public static final int DEFAULT_PRIORITY = 4;

    private BodyType bodyType = BodyType.MESSAGE;
    private String messageId;
    private long timestamp;
    private String correlationId;
    private byte[] correlationIdBytes;
    private byte replyToKind = NO_REPLY_TO;
    private String replyToName;
    private String type;
    private int deliveryMode = PERSISTENT;
    private int priority = DEFAULT_PRIORITY;
    private long expiration;
    private long deliveryTime;
    private final Map<String, Object> properties = new LinkedHashMap<>();

    public BodyType bodyType() { return bodyType; }
    public MessageHeaders bodyType(BodyType v) { bodyType = v; return this; }
    public String messageId() { return messageId; }
    public MessageHeaders messageId(String v) { messageId = v; return this; }
    public long timestamp() { return timestamp; }
    public MessageHeaders timestamp(long v) { timestamp = v; return this; }
    /** The string correlation id, or null (also when it was given as bytes). */
    public String correlationId() { return correlationId; }
    public MessageHeaders correlationId(String v) { correlationId = v; correlationIdBytes = null; return this; }
    /** The byte correlation id, or null (also when it was given as a string). */
    public byte[] correlationIdBytes() { return correlationIdBytes; }
    public MessageHeaders correlationIdBytes(byte[] v) { correlationIdBytes = v; correlationId = null; return this; }
    public byte replyToKind() { return replyToKind; }
    public String replyToName() { return replyToName; }
    public MessageHeaders replyTo(byte kind, String name) {
        if (kind < NO_REPLY_TO || kind > TEMPORARY_TOPIC || (kind == NO_REPLY_TO) != (name == null)) {
            throw new IllegalArgumentException("reply-to kind " + kind + " with name " + name);
        }
        replyToKind = kind;
        replyToName = name;
        return this;
    }
    public String type() { return type; }
    public MessageHeaders type(String v) { type = v; return this; }
    public int deliveryMode() { return deliveryMode; }
    public MessageHeaders deliveryMode(int v) { deliveryMode = v; return this; }
    public int priority() { return priority; }
    public MessageHeaders priority(int v) { priority = v; return this; }
    public long expiration() { return expiration; }
    public MessageHeaders expiration(long v) { expiration = v; return this; }
    public long deliveryTime() { return deliveryTime; }
    public MessageHeaders deliveryTime(long v) { deliveryTime = v; return this; }

    /** The properties in insertion order; live and writable. */
    public Map<String, Object> properties() { return properties; }

    public MessageHeaders property(String name, Object value) {
        if (!ValueCodec.isSupported(value, false)) {
            throw new IllegalArgumentException("property " + name + " of type " + value.getClass().getName());
        }
        properties.put(name, value);
        return this;
    }
}
