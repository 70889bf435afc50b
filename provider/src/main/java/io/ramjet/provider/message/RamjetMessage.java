package io.ramjet.provider.message;

import io.ramjet.protocol.message.BodyType;
import io.ramjet.protocol.selector.PropertySource;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A message without a body, and the headers and properties every Ramjet message has. Headers
 * are always settable (a provider sets them at send); properties and body become read-only
 * when a message is received, until clearProperties / clearBody. Not thread-safe: a message
 * belongs to one session's thread at a time, as the spec says.
 *
 * <p>A correlation id is a String or bytes, whichever was set last: the other getter then gives
 * the UTF-8 bytes of the String, or null for bytes.
 */
public class RamjetMessage implements Message, PropertySource {

    private String messageId;
    private long timestamp;
    private String correlationId;
    private byte[] correlationIdBytes;
    private Destination replyTo;
    private Destination destination;
    private int deliveryMode = DeliveryMode.PERSISTENT;
    private boolean redelivered;
    private String type;
    private long expiration;
    private long deliveryTime;
    private int priority = DEFAULT_PRIORITY;
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private boolean propertiesReadOnly;
    private boolean bodyReadOnly;
    private Acknowledger acknowledger;

    public BodyType bodyType() {
        return BodyType.MESSAGE;
    }

    // ---- headers

    @Override public String getJMSMessageID() { return messageId; }
    @Override public void setJMSMessageID(String id) { messageId = id; }
    @Override public long getJMSTimestamp() { return timestamp; }
    @Override public void setJMSTimestamp(long timestamp) { this.timestamp = timestamp; }

    @Override
    public byte[] getJMSCorrelationIDAsBytes() {
        if (correlationIdBytes != null) {
            return correlationIdBytes.clone();
        }
        return correlationId == null ? null : correlationId.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void setJMSCorrelationIDAsBytes(byte[] id) {
        correlationIdBytes = id == null ? null : id.clone();
        correlationId = null;
    }

    @Override
    public void setJMSCorrelationID(String id) {
        correlationId = id;
        correlationIdBytes = null;
    }

    @Override public String getJMSCorrelationID() { return correlationId; }

    /** Whether the correlation id was set as bytes. */
    public boolean hasCorrelationIdBytes() { return correlationIdBytes != null; }

    @Override public Destination getJMSReplyTo() { return replyTo; }
    @Override public void setJMSReplyTo(Destination replyTo) { this.replyTo = replyTo; }
    @Override public Destination getJMSDestination() { return destination; }
    @Override public void setJMSDestination(Destination destination) { this.destination = destination; }
    @Override public int getJMSDeliveryMode() { return deliveryMode; }

    @Override
    public void setJMSDeliveryMode(int mode) throws JMSException {
        if (mode != DeliveryMode.PERSISTENT && mode != DeliveryMode.NON_PERSISTENT) {
            throw new JMSException("delivery mode " + mode + " is neither PERSISTENT nor NON_PERSISTENT");
        }
        deliveryMode = mode;
    }

    @Override public boolean getJMSRedelivered() { return redelivered; }
    @Override public void setJMSRedelivered(boolean redelivered) { this.redelivered = redelivered; }
    @Override public String getJMSType() { return type; }
    @Override public void setJMSType(String type) { this.type = type; }
    @Override public long getJMSExpiration() { return expiration; }
    @Override public void setJMSExpiration(long expiration) { this.expiration = expiration; }
    @Override public long getJMSDeliveryTime() { return deliveryTime; }
    @Override public void setJMSDeliveryTime(long deliveryTime) { this.deliveryTime = deliveryTime; }
    @Override public int getJMSPriority() { return priority; }

    @Override
    public void setJMSPriority(int priority) throws JMSException {
        if (priority < 0 || priority > 9) {
            throw new JMSException("priority " + priority + " is not within 0..9");
        }
        this.priority = priority;
    }

    // ---- properties

    @Override
    public void clearProperties() {
        properties.clear();
        propertiesReadOnly = false;
    }

    @Override
    public boolean propertyExists(String name) {
        return properties.containsKey(name);
    }

    private Object property(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a property name must not be null or empty");
        }
        return properties.get(name);
    }

    @Override public boolean getBooleanProperty(String name) throws JMSException { return ValueConversions.toBoolean(property(name)); }
    @Override public byte getByteProperty(String name) throws JMSException { return ValueConversions.toByte(property(name)); }
    @Override public short getShortProperty(String name) throws JMSException { return ValueConversions.toShort(property(name)); }
    @Override public int getIntProperty(String name) throws JMSException { return ValueConversions.toInt(property(name)); }
    @Override public long getLongProperty(String name) throws JMSException { return ValueConversions.toLong(property(name)); }
    @Override public float getFloatProperty(String name) throws JMSException { return ValueConversions.toFloat(property(name)); }
    @Override public double getDoubleProperty(String name) throws JMSException { return ValueConversions.toDouble(property(name)); }
    @Override public String getStringProperty(String name) throws JMSException { return ValueConversions.toString(property(name)); }
    @Override public Object getObjectProperty(String name) { return property(name); }

    @Override
    public Enumeration<String> getPropertyNames() {
        return Collections.enumeration(new java.util.ArrayList<>(properties.keySet()));
    }

    @Override public void setBooleanProperty(String name, boolean value) throws JMSException { put(name, value); }
    @Override public void setByteProperty(String name, byte value) throws JMSException { put(name, value); }
    @Override public void setShortProperty(String name, short value) throws JMSException { put(name, value); }
    @Override public void setIntProperty(String name, int value) throws JMSException { put(name, value); }
    @Override public void setLongProperty(String name, long value) throws JMSException { put(name, value); }
    @Override public void setFloatProperty(String name, float value) throws JMSException { put(name, value); }
    @Override public void setDoubleProperty(String name, double value) throws JMSException { put(name, value); }
    @Override public void setStringProperty(String name, String value) throws JMSException { put(name, value); }

    @Override
    public void setObjectProperty(String name, Object value) throws JMSException {
        if (name != null && (name.equals(PropertyNames.INPUT_STREAM) || name.equals(PropertyNames.SAVE_STREAM))) {
            setStreamProperty(name, value);
            return;
        }
        if (!(value == null || value instanceof Boolean || value instanceof Byte || value instanceof Short
                || value instanceof Integer || value instanceof Long || value instanceof Float
                || value instanceof Double || value instanceof String)) {
            throw new MessageFormatException("a property cannot hold a " + value.getClass().getName()
                    + ": only primitive wrappers and String");
        }
        put(name, value);
    }

    /**
     * {@link PropertyNames#INPUT_STREAM} and {@link PropertyNames#SAVE_STREAM}: only a bytes
     * message has a body that can be streamed.
     */
    void setStreamProperty(String name, Object value) throws JMSException {
        throw new MessageFormatException(name + " applies to a BytesMessage only");
    }

    private void put(String name, Object value) throws JMSException {
        PropertyNames.validate(name);
        if (propertiesReadOnly) {
            throw new MessageNotWriteableException("the properties of a received message are read-only;"
                    + " clearProperties() makes them writable");
        }
        PropertyNames.checkType(name, value);
        properties.put(name, value);
    }

    /** The live property map, for the encoder and the provider's own JMSX properties. */
    Map<String, Object> properties() {
        return properties;
    }

    /** Sets JMSXDeliveryCount on a received message, whatever its read-only state. */
    public void setDeliveryCount(int count) {
        properties.put(PropertyNames.DELIVERY_COUNT, count);
    }

    /** Selector access: the allowed headers by name, else the property. */
    @Override
    public Object get(String identifier) {
        switch (identifier) {
            case "JMSDeliveryMode": return deliveryMode == DeliveryMode.PERSISTENT ? "PERSISTENT" : "NON_PERSISTENT";
            case "JMSPriority": return priority;
            case "JMSMessageID": return messageId;
            case "JMSTimestamp": return timestamp;
            case "JMSCorrelationID": return correlationId;
            case "JMSType": return type;
            default: return properties.get(identifier);
        }
    }

    // ---- body and state

    @Override
    public void acknowledge() throws JMSException {
        if (acknowledger != null) {
            acknowledger.acknowledge();
        }
    }

    public void setAcknowledger(Acknowledger acknowledger) {
        this.acknowledger = acknowledger;
    }

    @Override
    public void clearBody() throws JMSException {
        bodyReadOnly = false;
    }

    /** Makes properties and body read-only, as a received (or just sent) message is. */
    public void setReadOnly() throws JMSException {
        propertiesReadOnly = true;
        bodyReadOnly = true;
        onBodyReadOnly();
    }

    /** Called when the body becomes read-only: stream bodies switch to reading. */
    void onBodyReadOnly() throws JMSException {
    }

    boolean isBodyReadOnly() {
        return bodyReadOnly;
    }

    void setBodyReadOnly(boolean readOnly) {
        bodyReadOnly = readOnly;
    }

    void checkWritable() throws MessageNotWriteableException {
        if (bodyReadOnly) {
            throw new MessageNotWriteableException("the body of a received message is read-only;"
                    + " clearBody() makes it writable");
        }
    }

    void checkReadable() throws MessageNotReadableException {
        if (!bodyReadOnly) {
            throw new MessageNotReadableException("the body is being written; reset() makes it readable");
        }
    }

    /** The body as getBody returns it, or null when there is none. */
    Object bodyValue() throws JMSException {
        return null;
    }

    @Override
    public <T> T getBody(Class<T> c) throws JMSException {
        Object body = bodyValue();
        if (body == null) {
            return null;
        }
        if (!c.isInstance(body)) {
            throw new MessageFormatException("the body, a " + body.getClass().getName()
                    + ", cannot be returned as " + c.getName());
        }
        return c.cast(body);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public boolean isBodyAssignableTo(Class c) throws JMSException {
        Object body = bodyValue();
        return body == null || c.isInstance(body);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[id=" + messageId + ", properties=" + properties + "]";
    }
}
