package io.ramjet.protocol.message;

import static io.ramjet.protocol.message.HeaderSectionDescriptor.BODY_TYPE_OFFSET;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.CORRELATION_ID;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.CORRELATION_ID_BYTES;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.DELIVERY_MODE_OFFSET;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.DELIVERY_TIME_OFFSET;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.EXPIRATION_OFFSET;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.FIXED_LENGTH;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.MESSAGE_ID;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.PRIORITY_OFFSET;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.REPLY_TO;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.TIMESTAMP_OFFSET;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.TYPE;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.VERSION;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.check;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.firstPropertyAt;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.hasFixedPart;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.headerAt;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.nextPropertyAt;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.valueAt;

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * Writes and reads a message's header section, the JMS headers and typed properties, in the
 * layout {@link HeaderSectionDescriptor} describes. Decoding refuses what
 * {@link HeaderSectionDescriptor#check} refuses, with {@link MessageFormatError}; it never
 * allocates more than the input's length can hold. The in-place readers
 * {@link #expiration} and {@link #priority} serve a broker, which never decodes a section.
 */
public final class MessagePropertiesCodec {

    private MessagePropertiesCodec() {
    }

    /**
     * JMSExpiration of a section (epoch ms, 0 for never), read in place from the buffer's
     * position without decoding the rest; a section too short or of another version reads as 0.
     */
    public static long expiration(ByteBuffer section) {
        return hasFixedPart(section) ? section.getLong(section.position() + EXPIRATION_OFFSET) : 0;
    }

    /**
     * JMSPriority of a section (0-9), read in place from the buffer's position; a section too
     * short or of another version reads as the default, 4.
     */
    public static int priority(ByteBuffer section) {
        if (!hasFixedPart(section)) {
            return MessageHeaders.DEFAULT_PRIORITY;
        }
        int priority = section.get(section.position() + PRIORITY_OFFSET);
        return priority < 0 || priority > 9 ? MessageHeaders.DEFAULT_PRIORITY : priority;
    }

    public static byte[] encode(MessageHeaders h) {
        ValueCodec.Sink out = new ValueCodec.Sink(estimatedLength(h));
        out.put(VERSION).put(h.bodyType().code()).put((byte) h.deliveryMode()).put((byte) h.priority());
        out.putLong(h.timestamp()).putLong(h.expiration()).putLong(h.deliveryTime());
        int bits = (h.messageId() != null ? MESSAGE_ID : 0)
                | (h.correlationId() != null ? CORRELATION_ID : 0)
                | (h.correlationIdBytes() != null ? CORRELATION_ID_BYTES : 0)
                | (h.replyToKind() != MessageHeaders.NO_REPLY_TO ? REPLY_TO : 0)
                | (h.type() != null ? TYPE : 0);
        out.put((byte) bits);
        if (h.messageId() != null) {
            out.putString(h.messageId());
        }
        if (h.correlationId() != null) {
            out.putString(h.correlationId());
        }
        if (h.correlationIdBytes() != null) {
            out.putBytes(h.correlationIdBytes());
        }
        if (h.replyToKind() != MessageHeaders.NO_REPLY_TO) {
            out.put(h.replyToKind()).putString(h.replyToName());
        }
        if (h.type() != null) {
            out.putString(h.type());
        }
        out.putVarint(h.properties().size());
        for (Map.Entry<String, Object> e : h.properties().entrySet()) {
            if (!ValueCodec.isSupported(e.getValue(), false)) {
                throw new IllegalArgumentException("property " + e.getKey() + " has an unsupported type");
            }
            out.putString(e.getKey());
            ValueCodec.write(out, e.getValue());
        }
        return out.toByteArray();
    }

    /** About the encoded length for ASCII strings: the sink rarely grows. */
    private static int estimatedLength(MessageHeaders h) {
        int length = FIXED_LENGTH + 8 + charsOf(h.messageId()) + charsOf(h.correlationId()) + charsOf(h.type())
                + charsOf(h.replyToName()) + (h.correlationIdBytes() == null ? 0 : h.correlationIdBytes().length);
        for (Map.Entry<String, Object> e : h.properties().entrySet()) {
            length += 12 + e.getKey().length() + (e.getValue() instanceof String s ? s.length() : 0);
        }
        return length;
    }

    private static int charsOf(String s) {
        return s == null ? 0 : s.length() + 2;
    }

    public static MessageHeaders decode(byte[] bytes) {
        return decode(ByteBuffer.wrap(bytes));
    }

    /** Reads one section from the buffer's position to its limit, which must be the section's end, and consumes it. */
    public static MessageHeaders decode(ByteBuffer in) {
        check(in);
        int base = in.position(), limit = in.limit();
        ByteBuffer values = in.duplicate();
        MessageHeaders h = new MessageHeaders().bodyType(BodyType.ofCode(in.get(base + BODY_TYPE_OFFSET)))
                .deliveryMode(in.get(base + DELIVERY_MODE_OFFSET)).priority(in.get(base + PRIORITY_OFFSET))
                .timestamp(in.getLong(base + TIMESTAMP_OFFSET)).expiration(in.getLong(base + EXPIRATION_OFFSET))
                .deliveryTime(in.getLong(base + DELIVERY_TIME_OFFSET))
                .messageId(stringAt(in, headerAt(in, MESSAGE_ID)))
                .type(stringAt(in, headerAt(in, TYPE)));
        int correlationId = headerAt(in, CORRELATION_ID), correlationIdBytes = headerAt(in, CORRELATION_ID_BYTES);
        if (correlationId >= 0) {
            h.correlationId(stringAt(in, correlationId));
        } else if (correlationIdBytes >= 0) {
            h.correlationIdBytes(ValueCodec.readBytes(values.position(correlationIdBytes)));
        }
        int replyTo = headerAt(in, REPLY_TO);
        if (replyTo >= 0) {
            h.replyTo(in.get(replyTo), stringAt(in, replyTo + 1));
        }
        for (int p = firstPropertyAt(in); p < limit; p = nextPropertyAt(in, p)) {
            h.properties().put(stringAt(in, p), ValueCodec.read(values.position(valueAt(in, p)), false));
        }
        in.position(limit);
        return h;
    }

    /** The string whose varint length is at {@code at}, or null for -1. */
    private static String stringAt(ByteBuffer in, int at) {
        return at < 0 ? null : ValueCodec.stringAt(in, at, in.limit());
    }
}
