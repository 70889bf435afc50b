package io.ramjet.protocol.message;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The 8-byte Bloom-style signature of a message's tags, stored in its ConsumeQueue entry, and
 * the masks a selector analysis derives from its equality terms. A message may match a mask
 * only if every bit of the mask is set in its signature: no false negatives, some false
 * positives, which evaluating the whole selector removes (the broker does, on what it reads, and
 * the client again). The broker computes every message's signature itself when it stores it;
 * since signatures are stored in ConsumeQueue entries, the function is part of the storage
 * format and not a setting.
 *
 * <p>Tags, and their canonical text (one form per value a selector could compare equal):
 * <ul>
 *   <li>{@code JMSType='car'} for the JMSType header;</li>
 *   <li>{@code name='value'} for a String property;</li>
 *   <li>{@code name=5} for a byte, short, int or long property, and for a float or double one
 *       whose value is a whole number in long range ({@code 5.0} selects {@code d = 5});</li>
 *   <li>{@code name=TRUE} / {@code name=FALSE} for a boolean property.</li>
 * </ul>
 * Properties whose names begin with {@code JMS} (JMSX and vendor ones) are not tagged: some of
 * them are only set at delivery. A tag sets {@link #hashesPerTag()} bits of the low
 * {@link #widthBits()} bits, chosen by double hashing a 64-bit FNV-1a hash of its chars.
 * Immutable and thread-safe.
 */
public final class TagSignature {

    /** 64 bits, 3 bits a tag: about 5% false positives for one term at 10 tags a message. */
    public static final TagSignature DEFAULT = new TagSignature(64, 3);

    private final int widthBits;
    private final int hashesPerTag;
    /** widthBits - 1 when widthBits is a power of two, whose remainder is then a mask; else -1. */
    private final long powerOfTwoMask;

    /** @param widthBits 1..64 bits of the signature used; tests choose tiny ones to force collisions */
    public TagSignature(int widthBits, int hashesPerTag) {
        if (widthBits < 1 || widthBits > 64 || hashesPerTag < 1 || hashesPerTag > 16) {
            throw new IllegalArgumentException("width " + widthBits + ", hashes " + hashesPerTag);
        }
        this.widthBits = widthBits;
        this.hashesPerTag = hashesPerTag;
        this.powerOfTwoMask = Integer.bitCount(widthBits) == 1 ? widthBits - 1 : -1;
    }

    public int widthBits() {
        return widthBits;
    }

    public int hashesPerTag() {
        return hashesPerTag;
    }

    public long signatureOf(Iterable<String> tags) {
        long signature = 0;
        for (String tag : tags) {
            signature |= maskOf(tag);
        }
        return signature;
    }

    /** The signature of a header section's tags. */
    public long signatureOf(MessageHeaders headers) {
        return signatureOf(tagsOf(headers.type(), headers.properties()));
    }

    /**
     * The signature of an encoded header section ({@link HeaderSectionDescriptor}, from the
     * buffer's position to its limit), as the broker computes it when it stores a message: that
     * of {@link #signatureOf(MessageHeaders)} on the decoded section, read in place without
     * moving the buffer and, while its tagged text is ASCII, without allocating. A section that does not follow the layout (none,
     * or another one) has no tags: 0, which no selector with a mask matches, as no such selector
     * can match a message without properties.
     */
    public long signatureOfSection(ByteBuffer section) {
        try {
            HeaderSectionDescriptor.check(section);
        } catch (MessageFormatError e) {
            return 0;
        }
        return signatureOfCheckedSection(section);
    }

    /**
     * {@link #signatureOfSection} of a section that passed {@link HeaderSectionDescriptor#check}
     * (or {@link HeaderSectionDescriptor#checkWellFormed}), which it does not walk again: how the
     * broker, having refused malformed sections, signs what it stores.
     */
    public long signatureOfCheckedSection(ByteBuffer section) {
        return SectionTags.signature(this, section);
    }

    public long maskOf(String tag) {
        return maskOfHash(hash(FNV_BASIS, tag));
    }

    /** The mask of the tag whose canonical text has the FNV-1a hash {@code h} ({@link #hash}). */
    long maskOfHash(long h) {
        long h1 = mix(h);
        long h2 = mix(h1 ^ 0x9E3779B97F4A7C15L) | 1;
        long mask = 0;
        for (int i = 0; i < hashesPerTag; i++) {
            long probe = h1 + i * h2;
            mask |= 1L << (powerOfTwoMask >= 0 ? probe & powerOfTwoMask : Long.remainderUnsigned(probe, widthBits));
        }
        return mask;
    }

    public static boolean mayMatch(long signature, long mask) {
        return (signature & mask) == mask;
    }

    /** Whether a signature covers any of the alternative masks; true when there are none. */
    public static boolean mayMatchAny(long signature, long[] masks) {
        if (masks.length == 0) {
            return true;
        }
        for (long mask : masks) {
            if (mayMatch(signature, mask)) {
                return true;
            }
        }
        return false;
    }

    /** The tags of a message: its JMSType and its taggable properties. */
    public static List<String> tagsOf(String jmsType, Map<String, ?> properties) {
        List<String> tags = new ArrayList<>(properties.size() + 1);
        if (jmsType != null) {
            tags.add(stringTag("JMSType", jmsType));
        }
        for (Map.Entry<String, ?> e : properties.entrySet()) {
            if (e.getKey().startsWith("JMS")) {
                continue;
            }
            String tag = tagOf(e.getKey(), e.getValue());
            if (tag != null) {
                tags.add(tag);
            }
        }
        return tags;
    }

    /** The tag of one property value, or null when such a value is not tagged. */
    public static String tagOf(String name, Object value) {
        if (value instanceof String s) {
            return stringTag(name, s);
        }
        if (value instanceof Boolean b) {
            return booleanTag(name, b);
        }
        if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long) {
            return integerTag(name, ((Number) value).longValue());
        }
        if ((value instanceof Float || value instanceof Double) && isWholeLong(((Number) value).doubleValue())) {
            return integerTag(name, (long) ((Number) value).doubleValue());
        }
        return null;
    }

    /** Whether a floating value is a whole number in long range, which tags as that integer. */
    static boolean isWholeLong(double d) {
        return d == Math.rint(d) && d >= -0x1p63 && d < 0x1p63;
    }

    public static String stringTag(String name, String value) {
        return name + "='" + value + "'";
    }

    public static String integerTag(String name, long value) {
        return name + "=" + value;
    }

    public static String booleanTag(String name, boolean value) {
        return name + (value ? "=TRUE" : "=FALSE");
    }

    /** The FNV-1a hash of a tag's chars so far, before the first. */
    static final long FNV_BASIS = 0xcbf29ce484222325L;

    /** Feeds the chars of {@code text} to the FNV-1a hash {@code h} of a tag's chars, each as its low then its high byte. */
    static long hash(long h, String text) {
        for (int i = 0; i < text.length(); i++) {
            h = hash(h, text.charAt(i));
        }
        return h;
    }

    static long hash(long h, char c) {
        h = (h ^ (c & 0xFF)) * 0x100000001b3L;
        return (h ^ (c >>> 8)) * 0x100000001b3L;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
