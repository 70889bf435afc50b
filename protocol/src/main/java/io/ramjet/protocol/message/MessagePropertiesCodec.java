package io.ramjet.protocol.message;

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * Layout of a message's header section: the JMS headers and typed properties, the record's
 * "properties bytes" ({@code MessageRecordDescriptor}). Readable by a broker without the JMS API.
 *
 * <pre>
 *  +--------+----------+---------------+----------+
 *  | version| body type| delivery mode | priority |   4 bytes: VERSION, BodyType code, 1|2, 0..9
 *  +--------+----------+---------------+----------+
 *  | JMSTimestamp (long)                          |
 *  | JMSExpiration (long, 0 = never)              |
 *  | JMSDeliveryTime (long)                       |
 *  +----------------------------------------------+
 *  | presence bits (byte): 0x01 message id, 0x02 correlation id string,
 *  |   0x04 correlation id bytes, 0x08 reply-to, 0x10 type
 *  +----------------------------------------------+
 *  | [message id: varint length, UTF-8]           |  when 0x01
 *  | [correlation id: varint length, UTF-8]       |  when 0x02
 *  | [correlation id: varint length, bytes]       |  when 0x04 (never with 0x02)
 *  | [reply-to: kind byte 1..4, varint, UTF-8]    |  when 0x08; kinds of MessageHeaders
 *  | [JMSType: varint length, UTF-8]              |  when 0x10
 *  +----------------------------------------------+
 *  | property count (varint)                      |
 *  | count x (name: varint length, UTF-8; value: ValueCodec tag 0..9 and value)
 *  +----------------------------------------------+
 * </pre>
 *
 * Integers are big-endian; a varint and a typed value are as {@link ValueCodec} defines them.
 * Decoding refuses a different version, unknown bits or tags, and any truncation, with
 * {@link MessageFormatError}; it never allocates more than the input's length can hold.
 */
public final class MessagePropertiesCodec {

    public static final byte VERSION = 1;

    static final int MESSAGE_ID = 0x01, CORRELATION_ID = 0x02, CORRELATION_ID_BYTES = 0x04,
            REPLY_TO = 0x08, TYPE = 0x10;

    private static final int FIXED_LENGTH = 4 + 3 * 8 + 1;
    private static final int PRIORITY_OFFSET = 3, EXPIRATION_OFFSET = 4 + 8;

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

    private static boolean hasFixedPart(ByteBuffer section) {
        return section.remaining() >= FIXED_LENGTH && section.get(section.position()) == VERSION;
    }

    public static byte[] encode(MessageHeaders h) {
        ValueCodec.Sink out = new ValueCodec.Sink(FIXED_LENGTH + 32 * (1 + h.properties().size()));
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

    public static MessageHeaders decode(byte[] bytes) {
        return decode(ByteBuffer.wrap(bytes));
    }

    /** Reads one section from the buffer's position to its limit, which must be the section's end. */
    public static MessageHeaders decode(ByteBuffer in) {
        ValueCodec.need(in, FIXED_LENGTH);
        byte version = in.get();
        if (version != VERSION) {
            throw new MessageFormatError("header section version " + version + ", expected " + VERSION);
        }
        MessageHeaders h = new MessageHeaders();
        try {
            h.bodyType(BodyType.ofCode(in.get()));
        } catch (IllegalArgumentException e) {
            throw new MessageFormatError(e.getMessage());
        }
        byte deliveryMode = in.get(), priority = in.get();
        if (deliveryMode != MessageHeaders.NON_PERSISTENT && deliveryMode != MessageHeaders.PERSISTENT
                || priority < 0 || priority > 9) {
            throw new MessageFormatError("delivery mode " + deliveryMode + ", priority " + priority);
        }
        h.deliveryMode(deliveryMode).priority(priority);
        h.timestamp(in.getLong()).expiration(in.getLong()).deliveryTime(in.getLong());
        int bits = in.get();
        if ((bits & ~0x1F) != 0 || (bits & CORRELATION_ID) != 0 && (bits & CORRELATION_ID_BYTES) != 0) {
            throw new MessageFormatError("bad presence bits " + bits);
        }
        if ((bits & MESSAGE_ID) != 0) {
            h.messageId(ValueCodec.readString(in));
        }
        if ((bits & CORRELATION_ID) != 0) {
            h.correlationId(ValueCodec.readString(in));
        }
        if ((bits & CORRELATION_ID_BYTES) != 0) {
            h.correlationIdBytes(ValueCodec.readBytes(in));
        }
        if ((bits & REPLY_TO) != 0) {
            ValueCodec.need(in, 1);
            byte kind = in.get();
            if (kind < MessageHeaders.QUEUE || kind > MessageHeaders.TEMPORARY_TOPIC) {
                throw new MessageFormatError("bad reply-to kind " + kind);
            }
            h.replyTo(kind, ValueCodec.readString(in));
        }
        if ((bits & TYPE) != 0) {
            h.type(ValueCodec.readString(in));
        }
        int count = ValueCodec.readVarint(in);
        if (count > in.remaining() / 2) {
            throw new MessageFormatError("property count " + count + " exceeds the section");
        }
        for (int i = 0; i < count; i++) {
            String name = ValueCodec.readString(in);
            h.properties().put(name, ValueCodec.read(in, false));
        }
        if (in.hasRemaining()) {
            throw new MessageFormatError(in.remaining() + " bytes after the last property");
        }
        return h;
    }
}
