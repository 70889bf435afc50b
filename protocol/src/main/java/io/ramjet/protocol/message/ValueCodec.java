package io.ramjet.protocol.message;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One typed value: a tag byte, then the value. Shared by the header and property section
 * ({@link MessagePropertiesCodec}) and by the map and stream body layouts; all integers are
 * big-endian, floating values are their IEEE 754 bits.
 *
 * <pre>
 *   tag  value
 *   0    null: nothing
 *   1    boolean FALSE: nothing       2  boolean TRUE: nothing
 *   3    byte: 1 byte                 4  short: 2 bytes
 *   5    int: 4 bytes                 6  long: 8 bytes
 *   7    float: 4 bytes               8  double: 8 bytes
 *   9    String: varint length, UTF-8 bytes
 *   10   char: 2 bytes (body layouts only)
 *   11   byte[]: varint length, bytes (body layouts only)
 * </pre>
 *
 * A varint is an unsigned LEB128 int: 7 bits a byte, low group first, high bit = more follow.
 * Strings are standard UTF-8, so an unpaired surrogate does not survive a round trip.
 */
public final class ValueCodec {

    public static final byte NULL = 0;
    public static final byte FALSE = 1;
    public static final byte TRUE = 2;
    public static final byte BYTE = 3;
    public static final byte SHORT = 4;
    public static final byte INT = 5;
    public static final byte LONG = 6;
    public static final byte FLOAT = 7;
    public static final byte DOUBLE = 8;
    public static final byte STRING = 9;
    public static final byte CHAR = 10;
    public static final byte BYTES = 11;

    private ValueCodec() {
    }

    /** Whether a value can be written; {@code allowBodyTypes} admits char and byte[]. */
    public static boolean isSupported(Object value, boolean allowBodyTypes) {
        return value == null || value instanceof Boolean || value instanceof Byte || value instanceof Short
                || value instanceof Integer || value instanceof Long || value instanceof Float
                || value instanceof Double || value instanceof String
                || allowBodyTypes && (value instanceof Character || value instanceof byte[]);
    }

    public static void write(Sink out, Object value) {
        if (value == null) {
            out.put(NULL);
        } else if (value instanceof Boolean b) {
            out.put(b ? TRUE : FALSE);
        } else if (value instanceof Byte b) {
            out.put(BYTE).put(b);
        } else if (value instanceof Short s) {
            out.put(SHORT).putShort(s);
        } else if (value instanceof Integer i) {
            out.put(INT).putInt(i);
        } else if (value instanceof Long l) {
            out.put(LONG).putLong(l);
        } else if (value instanceof Float f) {
            out.put(FLOAT).putInt(Float.floatToRawIntBits(f));
        } else if (value instanceof Double d) {
            out.put(DOUBLE).putLong(Double.doubleToRawLongBits(d));
        } else if (value instanceof String s) {
            out.put(STRING).putString(s);
        } else if (value instanceof Character c) {
            out.put(CHAR).putShort((short) c.charValue());
        } else if (value instanceof byte[] bytes) {
            out.put(BYTES).putBytes(bytes);
        } else {
            throw new IllegalArgumentException("not a typed value: " + value.getClass().getName());
        }
    }

    public static Object read(ByteBuffer in, boolean allowBodyTypes) {
        byte tag = Sink.get(in);
        switch (tag) {
            case NULL: return null;
            case FALSE: return Boolean.FALSE;
            case TRUE: return Boolean.TRUE;
            case BYTE: return Sink.get(in);
            case SHORT: need(in, 2); return in.getShort();
            case INT: need(in, 4); return in.getInt();
            case LONG: need(in, 8); return in.getLong();
            case FLOAT: need(in, 4); return Float.intBitsToFloat(in.getInt());
            case DOUBLE: need(in, 8); return Double.longBitsToDouble(in.getLong());
            case STRING: return readString(in);
            default:
                if (allowBodyTypes && tag == CHAR) {
                    need(in, 2);
                    return in.getChar();
                }
                if (allowBodyTypes && tag == BYTES) {
                    return readBytes(in);
                }
                throw new MessageFormatError("unknown value tag " + tag);
        }
    }

    public static int readVarint(ByteBuffer in) {
        int at = in.position();
        int value = varintAt(in, at, in.limit());
        in.position(varintEnd(in, at, in.limit()));
        return value;
    }

    public static String readString(ByteBuffer in) {
        int at = in.position();
        String s = stringAt(in, at, in.limit());
        in.position(stringEnd(in, at, in.limit()));
        return s;
    }

    public static byte[] readBytes(ByteBuffer in) {
        int at = in.position();
        int start = varintEnd(in, at, in.limit());
        byte[] bytes = new byte[lengthBefore(in, at, start, in.limit())];
        in.get(start, bytes);
        in.position(start + bytes.length);
        return bytes;
    }

    // The readers below take absolute positions: they never move the buffer, refuse to read at or
    // past limit with MessageFormatError, and (but for stringAt) allocate nothing, so that a
    // broker can walk a layout where it lies.

    /** The varint at {@code at}. */
    public static int varintAt(ByteBuffer in, int at, int limit) {
        int value = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            byte b = byteAt(in, at++, limit);
            value |= (b & 0x7F) << shift;
            if (b >= 0) {
                if (value < 0) {
                    throw new MessageFormatError("negative length");
                }
                return value;
            }
        }
        throw new MessageFormatError("varint longer than 5 bytes");
    }

    /** Where the varint at {@code at} ends. */
    public static int varintEnd(ByteBuffer in, int at, int limit) {
        if (at < limit && in.get(at) >= 0) {
            return at + 1;
        }
        varintAt(in, at, limit);
        while (in.get(at) < 0) {
            at++;
        }
        return at + 1;
    }

    /** Where the string (or byte array) whose varint length is at {@code at} ends. */
    public static int stringEnd(ByteBuffer in, int at, int limit) {
        if (at < limit) {
            byte shortLength = in.get(at);
            if (shortLength >= 0 && shortLength <= limit - at - 1) {
                return at + 1 + shortLength;
            }
        }
        int start = varintEnd(in, at, limit);
        return start + lengthBefore(in, at, start, limit);
    }

    /** The string whose varint length is at {@code at}. */
    public static String stringAt(ByteBuffer in, int at, int limit) {
        int start = varintEnd(in, at, limit);
        int length = lengthBefore(in, at, start, limit);
        if (in.hasArray()) {
            return new String(in.array(), in.arrayOffset() + start, length, StandardCharsets.UTF_8);
        }
        byte[] utf8 = new byte[length];
        in.get(start, utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }

    /**
     * Refuses, with {@link MessageFormatError}, bytes from {@code start} to {@code end} that are
     * not well-formed UTF-8 (RFC 3629): a stray continuation byte, a truncated sequence, an
     * overlong form, a surrogate or a code point above U+10FFFF, none of which a String encodes to.
     */
    public static void checkUtf8(ByteBuffer in, int start, int end) {
        int i = start;
        while (i < end) {
            int b = in.get(i);
            if (b >= 0) {
                i++;
                continue;
            }
            int more, codePoint, least;
            if ((b & 0xE0) == 0xC0) {
                more = 1; codePoint = b & 0x1F; least = 0x80;
            } else if ((b & 0xF0) == 0xE0) {
                more = 2; codePoint = b & 0x0F; least = 0x800;
            } else if ((b & 0xF8) == 0xF0) {
                more = 3; codePoint = b & 0x07; least = 0x10000;
            } else {
                throw malformedUtf8(i);
            }
            if (more >= end - i) {
                throw malformedUtf8(i);
            }
            for (int k = 1; k <= more; k++) {
                int c = in.get(i + k);
                if ((c & 0xC0) != 0x80) {
                    throw malformedUtf8(i);
                }
                codePoint = codePoint << 6 | c & 0x3F;
            }
            if (codePoint < least || codePoint > 0x10FFFF || codePoint >= 0xD800 && codePoint <= 0xDFFF) {
                throw malformedUtf8(i);
            }
            i += more + 1;
        }
    }

    private static MessageFormatError malformedUtf8(int at) {
        return new MessageFormatError("malformed UTF-8 at byte " + at);
    }

    /** Where the typed value whose tag is at {@code at} ends; {@code allowBodyTypes} admits char and byte[]. */
    public static int valueEnd(ByteBuffer in, int at, int limit, boolean allowBodyTypes) {
        byte tag = byteAt(in, at, limit);
        int size;
        switch (tag) {
            case NULL, FALSE, TRUE -> size = 0;
            case BYTE -> size = 1;
            case SHORT -> size = 2;
            case INT, FLOAT -> size = 4;
            case LONG, DOUBLE -> size = 8;
            case STRING -> {
                return stringEnd(in, at + 1, limit);
            }
            default -> {
                if (allowBodyTypes && tag == CHAR) {
                    size = 2;
                } else if (allowBodyTypes && tag == BYTES) {
                    return stringEnd(in, at + 1, limit);
                } else {
                    throw new MessageFormatError("unknown value tag " + tag);
                }
            }
        }
        if (size > limit - at - 1) {
            throw truncated(size, limit - at - 1);
        }
        return at + 1 + size;
    }

    /** Whether a tag is that of a byte, short, int or long. */
    public static boolean isInteger(byte tag) {
        return tag >= BYTE && tag <= LONG;
    }

    /** Whether a tag is that of a float or double. */
    public static boolean isFloating(byte tag) {
        return tag == FLOAT || tag == DOUBLE;
    }

    /** The integer whose tag ({@link #isInteger}) is at {@code at}, widened to a long. */
    public static long integerAt(ByteBuffer in, int at) {
        return switch (in.get(at)) {
            case BYTE -> in.get(at + 1);
            case SHORT -> in.getShort(at + 1);
            case INT -> in.getInt(at + 1);
            default -> in.getLong(at + 1);
        };
    }

    /** The floating value whose tag ({@link #isFloating}) is at {@code at}, widened to a double. */
    public static double floatingAt(ByteBuffer in, int at) {
        return in.get(at) == FLOAT ? Float.intBitsToFloat(in.getInt(at + 1)) : Double.longBitsToDouble(in.getLong(at + 1));
    }

    private static byte byteAt(ByteBuffer in, int at, int limit) {
        if (at >= limit) {
            throw truncated(1, 0);
        }
        return in.get(at);
    }

    /** The length in the varint from {@code at} to {@code start}, checked against what follows it. */
    private static int lengthBefore(ByteBuffer in, int at, int start, int limit) {
        int length = varintAt(in, at, limit);
        if (length > limit - start) {
            throw truncated(length, limit - start);
        }
        return length;
    }

    private static MessageFormatError truncated(int needed, int left) {
        return new MessageFormatError("truncated: need " + needed + " bytes, " + left + " left");
    }

    static void need(ByteBuffer in, int n) {
        if (in.remaining() < n) {
            throw truncated(n, in.remaining());
        }
    }

    /** A growable big-endian byte sink, the writing side of every layout here. */
    public static final class Sink {
        private byte[] bytes;
        private int size;

        public Sink(int capacity) {
            bytes = new byte[Math.max(16, capacity)];
        }

        static byte get(ByteBuffer in) {
            need(in, 1);
            return in.get();
        }

        private void ensure(int n) {
            if (size + n > bytes.length) {
                bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + n));
            }
        }

        public Sink put(byte b) {
            ensure(1);
            bytes[size++] = b;
            return this;
        }

        public Sink putShort(short s) {
            ensure(2);
            bytes[size++] = (byte) (s >> 8);
            bytes[size++] = (byte) s;
            return this;
        }

        public Sink putInt(int i) {
            ensure(4);
            for (int shift = 24; shift >= 0; shift -= 8) {
                bytes[size++] = (byte) (i >> shift);
            }
            return this;
        }

        public Sink putLong(long l) {
            ensure(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                bytes[size++] = (byte) (l >> shift);
            }
            return this;
        }

        public Sink putVarint(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("negative length " + value);
            }
            while ((value & ~0x7F) != 0) {
                put((byte) ((value & 0x7F) | 0x80));
                value >>>= 7;
            }
            return put((byte) value);
        }

        public Sink putString(String s) {
            return putBytes(s.getBytes(StandardCharsets.UTF_8));
        }

        public Sink putBytes(byte[] b) {
            putVarint(b.length);
            return putRaw(b, 0, b.length);
        }

        public Sink putRaw(byte[] b, int offset, int length) {
            ensure(length);
            System.arraycopy(b, offset, bytes, size, length);
            size += length;
            return this;
        }

        public int size() {
            return size;
        }

        /** The bytes put so far: the sink's own array when exactly full, as a later put moves to a new one. */
        public byte[] toByteArray() {
            return size == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, size);
        }
    }
}
