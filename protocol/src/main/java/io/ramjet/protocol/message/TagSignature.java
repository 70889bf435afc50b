package io.ramjet.protocol.message;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The 8-byte Bloom-style signature of a message's tags, stored in its ConsumeQueue entry, and
 * the masks a selector analysis derives from its equality terms. A message may match a mask
 * only if every bit of the mask is set in its signature: no false negatives, some false
 * positives, which the client removes by evaluating the whole selector.
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

    /** @param widthBits 1..64 bits of the signature used; tests choose tiny ones to force collisions */
    public TagSignature(int widthBits, int hashesPerTag) {
        if (widthBits < 1 || widthBits > 64 || hashesPerTag < 1 || hashesPerTag > 16) {
            throw new IllegalArgumentException("width " + widthBits + ", hashes " + hashesPerTag);
        }
        this.widthBits = widthBits;
        this.hashesPerTag = hashesPerTag;
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

    /** The signature of a header section's tags, as a broker computes it at dispatch. */
    public long signatureOf(MessageHeaders headers) {
        return signatureOf(tagsOf(headers.type(), headers.properties()));
    }

    public long maskOf(String tag) {
        long h = fnv1a(tag);
        long h1 = mix(h);
        long h2 = mix(h1 ^ 0x9E3779B97F4A7C15L) | 1;
        long mask = 0;
        for (int i = 0; i < hashesPerTag; i++) {
            mask |= 1L << Long.remainderUnsigned(h1 + i * h2, widthBits);
        }
        return mask;
    }

    public static boolean mayMatch(long signature, long mask) {
        return (signature & mask) == mask;
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
        if (value instanceof Float || value instanceof Double) {
            double d = ((Number) value).doubleValue();
            if (d == Math.rint(d) && d >= -0x1p63 && d < 0x1p63) {
                return integerTag(name, (long) d);
            }
        }
        return null;
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

    private static long fnv1a(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            h = (h ^ (c & 0xFF)) * 0x100000001b3L;
            h = (h ^ (c >>> 8)) * 0x100000001b3L;
        }
        return h;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
