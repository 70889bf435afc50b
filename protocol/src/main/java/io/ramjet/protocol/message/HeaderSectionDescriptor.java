package io.ramjet.protocol.message;

import java.nio.ByteBuffer;

/**
 * Layout of a message's header section: the JMS headers and typed properties, the record's
 * "properties bytes" ({@code MessageRecordDescriptor}). Readable by a broker without the JMS API.
 * This class is the one description of the layout: {@link MessagePropertiesCodec} writes and
 * decodes a section through it, and the broker reads sections in place through it (the
 * selector package's {@code HeaderSectionView}, {@link TagSignature#signatureOfSection}).
 *
 * <pre>
 *  +--------+----------+---------------+----------+
 *  | version| body type| delivery mode | priority |  0  VERSION, BodyType code, 1|2, 0..9
 *  +--------+----------+---------------+----------+
 *  | JMSTimestamp (long)                          |  4
 *  | JMSExpiration (long, 0 = never)              | 12
 *  | JMSDeliveryTime (long)                       | 20
 *  +----------------------------------------------+
 *  | presence bits (byte): 0x01 message id,       | 28
 *  |   0x02 correlation id string, 0x04 correlation id bytes, 0x08 reply-to, 0x10 type
 *  +----------------------------------------------+
 *  | [message id: varint length, UTF-8]           | 29  when 0x01
 *  | [correlation id: varint length, UTF-8]       |     when 0x02
 *  | [correlation id: varint length, bytes]       |     when 0x04 (never with 0x02)
 *  | [reply-to: kind byte 1..4, varint, UTF-8]    |     when 0x08; kinds of MessageHeaders
 *  | [JMSType: varint length, UTF-8]              |     when 0x10
 *  +----------------------------------------------+
 *  | property count (varint)                      |
 *  | count x (name: varint length, UTF-8; value: ValueCodec tag 0..9 and value)
 *  +----------------------------------------------+
 * </pre>
 *
 * A section lies in a buffer from the buffer's position to its limit. Integers are big-endian;
 * varints, strings and typed values are as {@link ValueCodec} defines them.
 *
 * <p>The walk: {@link #check} reads a whole section and refuses, with {@link MessageFormatError},
 * another version, unknown bits, body types, reply-to kinds or value tags, any truncation and
 * trailing bytes; {@link #checkWellFormed}, what a broker asks of a section before it stores it,
 * refuses as well text (ids, reply-to name, JMSType, property names, String values) that is not
 * well-formed UTF-8, since the broker hashes and compares text that its clients then decode.
 * On a section that passed either, {@link #headerAt} locates an optional header and
 * {@link #firstPropertyAt}, {@link #valueAt} and {@link #nextPropertyAt} iterate the properties:
 * <pre>
 *   for (int p = firstPropertyAt(s); p &lt; s.limit(); p = nextPropertyAt(s, p)) { name at p, value at valueAt(s, p) }
 * </pre>
 * Every method reads at absolute positions: none moves the buffer or allocates, but for the
 * error it throws. A reader that wants every position at once walks the section once with
 * {@link #check(ByteBuffer, SectionIndex)}, which checks and reports them in the same pass.
 */
public final class HeaderSectionDescriptor {

    public static final byte VERSION = 1;

    public static final int VERSION_OFFSET = 0;
    public static final int BODY_TYPE_OFFSET = 1;
    public static final int DELIVERY_MODE_OFFSET = 2;
    public static final int PRIORITY_OFFSET = 3;
    public static final int TIMESTAMP_OFFSET = 4;
    public static final int EXPIRATION_OFFSET = 12;
    public static final int DELIVERY_TIME_OFFSET = 20;
    public static final int PRESENCE_BITS_OFFSET = 28;

    /** Length of the fixed part, and offset of the first optional header. */
    public static final int FIXED_LENGTH = 29;

    /** Presence bits, in the order their headers follow the fixed part. */
    public static final int MESSAGE_ID = 0x01, CORRELATION_ID = 0x02, CORRELATION_ID_BYTES = 0x04,
            REPLY_TO = 0x08, TYPE = 0x10;

    private static final int LAST_HEADER = TYPE;

    /** Nothing to report: a plain check. */
    private static final SectionIndex NO_INDEX = new SectionIndex() {
        @Override
        public void header(int header, int at) {
        }

        @Override
        public void property(int nameAt, int valueAt) {
        }
    };

    private HeaderSectionDescriptor() {
    }

    /**
     * Where a section's parts lie, reported by {@link #check(ByteBuffer, SectionIndex)} as its
     * walk passes them, in section order. Positions are absolute in the section's buffer; they
     * describe a valid section only once the check returned.
     */
    public interface SectionIndex {

        /** An optional header is present and starts at {@code at}, as {@link #headerAt} would say. */
        void header(int header, int at);

        /** A property's name starts at {@code nameAt} and its value (its tag) at {@code valueAt}. */
        void property(int nameAt, int valueAt);
    }

    /** Whether the section holds a fixed part of this version, whose fields can then be read in place. */
    public static boolean hasFixedPart(ByteBuffer section) {
        return section.remaining() >= FIXED_LENGTH && section.get(section.position() + VERSION_OFFSET) == VERSION;
    }

    /** Checks that the whole section follows the layout; see the class comment for what it refuses. */
    public static void check(ByteBuffer section) {
        walk(section, false, NO_INDEX);
    }

    /**
     * {@link #check}, reporting to {@code index} where each optional header and property lies,
     * in one pass over the section.
     */
    public static void check(ByteBuffer section, SectionIndex index) {
        walk(section, false, index);
    }

    /** {@link #check}, and that every text of the section is well-formed UTF-8 ({@link ValueCodec#checkUtf8}). */
    public static void checkWellFormed(ByteBuffer section) {
        walk(section, true, NO_INDEX);
    }

    private static void walk(ByteBuffer section, boolean text, SectionIndex index) {
        int base = section.position();
        if (section.remaining() < FIXED_LENGTH) {
            throw new MessageFormatError("truncated: header section of " + section.remaining()
                    + " bytes, its fixed part alone is " + FIXED_LENGTH);
        }
        byte version = section.get(base + VERSION_OFFSET);
        if (version != VERSION) {
            throw new MessageFormatError("header section version " + version + ", expected " + VERSION);
        }
        try {
            BodyType.ofCode(section.get(base + BODY_TYPE_OFFSET));
        } catch (IllegalArgumentException e) {
            throw new MessageFormatError(e.getMessage());
        }
        byte deliveryMode = section.get(base + DELIVERY_MODE_OFFSET), priority = section.get(base + PRIORITY_OFFSET);
        if (deliveryMode != MessageHeaders.NON_PERSISTENT && deliveryMode != MessageHeaders.PERSISTENT
                || priority < 0 || priority > 9) {
            throw new MessageFormatError("delivery mode " + deliveryMode + ", priority " + priority);
        }
        int bits = presenceBits(section);
        if ((bits & ~(2 * LAST_HEADER - 1)) != 0 || (bits & CORRELATION_ID) != 0 && (bits & CORRELATION_ID_BYTES) != 0) {
            throw new MessageFormatError("bad presence bits " + bits);
        }
        int countAt = headersEnd(section, 2 * LAST_HEADER, text, index);
        int limit = section.limit();
        int count = ValueCodec.varintAt(section, countAt, limit);
        int at = ValueCodec.varintEnd(section, countAt, limit);
        if (count > (limit - at) / 2) {
            throw new MessageFormatError("property count " + count + " exceeds the section");
        }
        for (int i = 0; i < count; i++) {
            int value = text ? textEnd(section, at) : valueAt(section, at);
            index.property(at, value);
            at = ValueCodec.valueEnd(section, value, limit, false);
            if (text && section.get(value) == ValueCodec.STRING) {
                textEnd(section, value + 1);
            }
        }
        if (at != section.limit()) {
            throw new MessageFormatError(section.limit() - at + " bytes after the last property");
        }
    }

    /** The presence bits of a section. */
    public static int presenceBits(ByteBuffer section) {
        return section.get(section.position() + PRESENCE_BITS_OFFSET);
    }

    /**
     * Where an optional header starts (its varint length; for {@link #REPLY_TO} its kind byte,
     * followed by the name's varint length), or -1 when the section has none.
     *
     * @param header one of the presence bits
     */
    public static int headerAt(ByteBuffer section, int header) {
        return (presenceBits(section) & header) != 0 ? headersEnd(section, header, false, NO_INDEX) : -1;
    }

    /** The number of properties of a section. */
    public static int propertyCount(ByteBuffer section) {
        return ValueCodec.varintAt(section, headersEnd(section, 2 * LAST_HEADER, false, NO_INDEX), section.limit());
    }

    /** Where the first property starts (its name's varint length): the section's limit when it has none. */
    public static int firstPropertyAt(ByteBuffer section) {
        return ValueCodec.varintEnd(section, headersEnd(section, 2 * LAST_HEADER, false, NO_INDEX), section.limit());
    }

    /** Where the value (its tag) of the property starting at {@code propertyAt} starts. */
    public static int valueAt(ByteBuffer section, int propertyAt) {
        return ValueCodec.stringEnd(section, propertyAt, section.limit());
    }

    /** Where the property after the one starting at {@code propertyAt} starts: the section's limit after the last. */
    public static int nextPropertyAt(ByteBuffer section, int propertyAt) {
        return ValueCodec.valueEnd(section, valueAt(section, propertyAt), section.limit(), false);
    }

    /**
     * Where the optional headers present before {@code header} end, checking each reply-to kind
     * on the way and, when {@code text}, that each header but the correlation id bytes is UTF-8;
     * tells {@code index} where each starts.
     */
    private static int headersEnd(ByteBuffer section, int header, boolean text, SectionIndex index) {
        int bits = presenceBits(section);
        int at = section.position() + FIXED_LENGTH;
        for (int present = MESSAGE_ID; present < header; present <<= 1) {
            if ((bits & present) == 0) {
                continue;
            }
            index.header(present, at);
            if (present == REPLY_TO) {
                at = replyToNameAt(section, at);
            }
            at = text && present != CORRELATION_ID_BYTES ? textEnd(section, at)
                    : ValueCodec.stringEnd(section, at, section.limit());
        }
        return at;
    }

    /** Where the string whose varint length is at {@code at} ends, checking that it is well-formed UTF-8. */
    private static int textEnd(ByteBuffer section, int at) {
        int end = ValueCodec.stringEnd(section, at, section.limit());
        ValueCodec.checkUtf8(section, ValueCodec.varintEnd(section, at, end), end);
        return end;
    }

    private static int replyToNameAt(ByteBuffer section, int at) {
        if (at >= section.limit()) {
            throw new MessageFormatError("truncated: no reply-to kind");
        }
        byte kind = section.get(at);
        if (kind < MessageHeaders.QUEUE || kind > MessageHeaders.TEMPORARY_TOPIC) {
            throw new MessageFormatError("bad reply-to kind " + kind);
        }
        return at + 1;
    }
}
