package io.ramjet.protocol.message;

import static io.ramjet.protocol.message.HeaderSectionDescriptor.firstPropertyAt;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.nextPropertyAt;
import static io.ramjet.protocol.message.HeaderSectionDescriptor.valueAt;
import static io.ramjet.protocol.message.TagSignature.hash;

import java.nio.ByteBuffer;

/**
 * The tags of an encoded header section, hashed where the section lies: how
 * {@link TagSignature#signatureOfSection} gives, on the broker's send path and without decoding,
 * the signature that {@link TagSignature#tagsOf} gives on the decoded section. The canonical text
 * of each tag ({@link TagSignature#stringTag}, {@link TagSignature#integerTag},
 * {@link TagSignature#booleanTag}) is fed to the hash piece by piece: names and string values
 * byte by byte while they are ASCII, numbers digit by digit. Nothing is allocated while the
 * tagged text is ASCII; other text is decoded first, so that it hashes as the String decoding
 * gives, malformed UTF-8 included.
 *
 * <p>Decoding keeps the last value of a name that comes twice, so a property whose name comes
 * again later is not tagged. That costs comparing the names pairwise, so a section of more than
 * {@link #MAX_IN_PLACE} properties is decoded instead. Stateless; every section given here has
 * passed {@link HeaderSectionDescriptor#check}.
 */
final class SectionTags {

    static final int MAX_IN_PLACE = 64;

    private static final long JMS_TYPE = hash(TagSignature.FNV_BASIS, "JMSType");

    private SectionTags() {
    }

    static long signature(TagSignature function, ByteBuffer section) {
        if (HeaderSectionDescriptor.propertyCount(section) > MAX_IN_PLACE) {
            return function.signatureOf(MessagePropertiesCodec.decode(section.duplicate()));
        }
        long signature = 0;
        int typeAt = HeaderSectionDescriptor.headerAt(section, HeaderSectionDescriptor.TYPE);
        if (typeAt >= 0) {
            signature |= function.maskOfHash(stringTag(JMS_TYPE, section, typeAt));
        }
        for (int p = firstPropertyAt(section); p < section.limit(); p = nextPropertyAt(section, p)) {
            int value = valueAt(section, p);
            if (isTagged(section, value) && !isJmsName(section, p) && !isNamedAgain(section, p)) {
                signature |= function.maskOfHash(tag(text(TagSignature.FNV_BASIS, section, p), section, value));
            }
        }
        return signature;
    }

    /** Whether the value whose tag is at {@code at} is tagged: a string, boolean or integer, or a whole floating value. */
    private static boolean isTagged(ByteBuffer section, int at) {
        byte tag = section.get(at);
        return tag == ValueCodec.STRING || tag == ValueCodec.TRUE || tag == ValueCodec.FALSE || ValueCodec.isInteger(tag)
                || ValueCodec.isFloating(tag) && TagSignature.isWholeLong(ValueCodec.floatingAt(section, at));
    }

    /** The hash of a property's tag, from the hash of its name and its tagged value at {@code at}. */
    private static long tag(long name, ByteBuffer section, int at) {
        byte tag = section.get(at);
        return switch (tag) {
            case ValueCodec.STRING -> stringTag(name, section, at + 1);
            case ValueCodec.TRUE -> hash(name, "=TRUE");
            case ValueCodec.FALSE -> hash(name, "=FALSE");
            default -> decimal(hash(name, '='),
                    ValueCodec.isInteger(tag) ? ValueCodec.integerAt(section, at) : (long) ValueCodec.floatingAt(section, at));
        };
    }

    /** The hash of {@code name='value'}, from the hash of the name and the string whose varint length is at {@code at}. */
    private static long stringTag(long name, ByteBuffer section, int at) {
        return hash(text(hash(name, "='"), section, at), '\'');
    }

    /**
     * Feeds {@code Long.toString(value)} to the hash. The digits are taken least significant
     * first, by constant divisions (which compile to multiplications), and held four bits each
     * in two longs (19 digits at most) to be fed most significant first.
     */
    private static long decimal(long h, long value) {
        if (value < 0) {
            h = hash(h, '-');
        }
        long negative = value < 0 ? value : -value;
        long low = 0, high = 0;
        int digits = 0;
        do {
            long digit = -(negative % 10);
            if (digits < 16) {
                low |= digit << 4 * digits;
            } else {
                high |= digit << 4 * (digits - 16);
            }
            negative /= 10;
            digits++;
        } while (negative != 0);
        for (int k = digits - 1; k >= 0; k--) {
            long digit = k < 16 ? low >>> 4 * k : high >>> 4 * (k - 16);
            h = hash(h, (char) ('0' + (digit & 0xF)));
        }
        return h;
    }

    /** Feeds the string whose varint length is at {@code at} to the hash. */
    private static long text(long h, ByteBuffer section, int at) {
        int start = ValueCodec.varintEnd(section, at, section.limit());
        int end = start + ValueCodec.varintAt(section, at, section.limit());
        if (!isAscii(section, start, end)) {
            return hash(h, ValueCodec.stringAt(section, at, section.limit()));
        }
        for (int i = start; i < end; i++) {
            h = hash(h, (char) section.get(i));
        }
        return h;
    }

    /** Whether the name of the property at {@code at} begins with JMS, which is never tagged. */
    private static boolean isJmsName(ByteBuffer section, int at) {
        int start = ValueCodec.varintEnd(section, at, section.limit());
        return ValueCodec.varintAt(section, at, section.limit()) >= 3 && section.get(start) == 'J'
                && section.get(start + 1) == 'M' && section.get(start + 2) == 'S';
    }

    /**
     * Whether a property after the one at {@code at} has a name that decodes to the same string:
     * the same bytes do, and different ones do not unless both hold non-ASCII bytes, which can be
     * malformed UTF-8 that decodes alike.
     */
    private static boolean isNamedAgain(ByteBuffer section, int at) {
        int limit = section.limit();
        int start = ValueCodec.varintEnd(section, at, limit), length = ValueCodec.varintAt(section, at, limit);
        boolean ascii = isAscii(section, start, start + length);
        for (int later = nextPropertyAt(section, at); later < limit; later = nextPropertyAt(section, later)) {
            int laterStart = ValueCodec.varintEnd(section, later, limit);
            int laterLength = ValueCodec.varintAt(section, later, limit);
            if (laterLength == length && sameBytes(section, start, laterStart, length)
                    || !ascii && !isAscii(section, laterStart, laterStart + laterLength)
                    && ValueCodec.stringAt(section, at, limit).equals(ValueCodec.stringAt(section, later, limit))) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameBytes(ByteBuffer section, int a, int b, int length) {
        for (int i = 0; i < length; i++) {
            if (section.get(a + i) != section.get(b + i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAscii(ByteBuffer section, int start, int end) {
        for (int i = start; i < end; i++) {
            if (section.get(i) < 0) {
                return false;
            }
        }
        return true;
    }
}
