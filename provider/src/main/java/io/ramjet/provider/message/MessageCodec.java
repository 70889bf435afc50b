package io.ramjet.provider.message;

import io.ramjet.protocol.message.HeaderSectionDescriptor;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.provider.destination.RamjetDestination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import io.ramjet.protocol.message.BodyType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * Between a Ramjet message and the bytes that carry it: the header section through
 * {@link MessagePropertiesCodec}, the body through {@link MessageBodyCodec}. JMSDestination,
 * JMSRedelivered and JMSXDeliveryCount do not travel in these bytes; the consumer sets them.
 */
public final class MessageCodec {

    private MessageCodec() {
    }

    public static EncodedMessage encode(RamjetMessage message) throws JMSException {
        return new EncodedMessage(MessagePropertiesCodec.encode(headersOf(message)), MessageBodyCodec.encode(message));
    }

    /** The body bytes alone, for a sender that encodes the header section itself. */
    public static byte[] encodeBody(RamjetMessage message) {
        return MessageBodyCodec.encode(message);
    }

    /** The header section of a message, as the broker will see it (and tag it). */
    public static MessageHeaders headersOf(RamjetMessage message) throws JMSException {
        MessageHeaders h = new MessageHeaders()
                .bodyType(message.bodyType())
                .messageId(message.getJMSMessageID())
                .timestamp(message.getJMSTimestamp())
                .type(message.getJMSType())
                .deliveryMode(message.getJMSDeliveryMode())
                .priority(message.getJMSPriority())
                .expiration(message.getJMSExpiration())
                .deliveryTime(message.getJMSDeliveryTime());
        if (message.hasCorrelationIdBytes()) {
            h.correlationIdBytes(message.getJMSCorrelationIDAsBytes());
        } else {
            h.correlationId(message.getJMSCorrelationID());
        }
        RamjetDestination replyTo = RamjetDestination.from(message.getJMSReplyTo());
        if (replyTo != null) {
            h.replyTo(replyTo.kindCode(), replyTo.name());
        }
        for (Map.Entry<String, Object> e : message.properties().entrySet()) {
            if (!e.getKey().equals(PropertyNames.DELIVERY_COUNT)) {
                h.properties().put(e.getKey(), e.getValue());
            }
        }
        return h;
    }

    /**
     * JMSPriority read in place from a header section (its position untouched), without decoding
     * it: a consumer orders what it prefetched by it before it decodes anything. The default
     * priority for a section too short to hold it, which decoding then refuses.
     */
    public static int priorityOf(ByteBuffer properties) {
        if (properties.remaining() < HeaderSectionDescriptor.FIXED_LENGTH) {
            return Message.DEFAULT_PRIORITY;
        }
        return properties.get(properties.position() + HeaderSectionDescriptor.PRIORITY_OFFSET);
    }

    /** A received message: headers, properties and body as sent, all read-only. */
    public static RamjetMessage decode(byte[] properties, byte[] body, SerializationAllowList allowList)
            throws JMSException {
        return decode(ByteBuffer.wrap(properties), ByteBuffer.wrap(body), allowList);
    }

    /**
     * {@link #decode(byte[], byte[], SerializationAllowList)} from views of the bytes (their
     * positions untouched), read in place: a bytes message's body stays a view of them, so
     * nothing may change them afterwards; other bodies are decoded into their own values.
     */
    public static RamjetMessage decode(ByteBuffer properties, ByteBuffer body, SerializationAllowList allowList)
            throws JMSException {
        try {
            MessageHeaders h = MessagePropertiesCodec.decode(properties.duplicate());
            return withHeaders(MessageBodyCodec.decode(h.bodyType(), body.duplicate(), allowList), h);
        } catch (RuntimeException e) {
            throw undecodable(e);
        }
    }

    /**
     * A received large message: its header section, and its body read from {@code source}. A
     * bytes body stays where it is and is read in chunks as the application reads it; any other
     * body (text, map, stream, object: held whole by their API anyway) is read and decoded now.
     *
     * @param bodyLength the body's length as the application reads it
     */
    public static RamjetMessage decodeLarge(ByteBuffer properties, long bodyLength, LargeBodySource source,
                                            SerializationAllowList allowList) throws JMSException {
        MessageHeaders h;
        try {
            h = MessagePropertiesCodec.decode(properties.duplicate());
        } catch (RuntimeException e) {
            throw undecodable(e);
        }
        if (h.bodyType() == BodyType.BYTES) {
            RamjetBytesMessage m = new RamjetBytesMessage();
            m.setLargeBody(bodyLength, source);
            return withHeaders(m, h);
        }
        byte[] whole;
        try {
            whole = source.readWhole(bodyLength);
        } catch (IOException e) {
            throw JmsIo.failure("reading a large body", e);
        }
        return decode(properties, ByteBuffer.wrap(whole), allowList);
    }

    private static RamjetMessage withHeaders(RamjetMessage m, MessageHeaders h) throws JMSException {
        try {
            m.setJMSMessageID(h.messageId());
            m.setJMSTimestamp(h.timestamp());
            if (h.correlationIdBytes() != null) {
                m.setJMSCorrelationIDAsBytes(h.correlationIdBytes());
            } else {
                m.setJMSCorrelationID(h.correlationId());
            }
            if (h.replyToKind() != MessageHeaders.NO_REPLY_TO) {
                m.setJMSReplyTo(RamjetDestination.of(h.replyToKind(), h.replyToName()));
            }
            m.setJMSType(h.type());
            m.setJMSDeliveryMode(h.deliveryMode());
            m.setJMSPriority(h.priority());
            m.setJMSExpiration(h.expiration());
            m.setJMSDeliveryTime(h.deliveryTime());
            m.properties().putAll(h.properties());
            m.setReadOnly();
            return m;
        } catch (RuntimeException e) {
            throw undecodable(e);
        }
    }

    private static MessageFormatException undecodable(RuntimeException e) {
        MessageFormatException jms = new MessageFormatException("undecodable message: " + e.getMessage());
        jms.setLinkedException(e);
        return jms;
    }
}
