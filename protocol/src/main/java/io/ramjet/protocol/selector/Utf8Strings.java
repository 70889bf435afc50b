package io.ramjet.protocol.selector;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * UTF-8 text where it lies in a buffer, for {@link HeaderSectionView}: comparison with a Java
 * string without decoding, and decoding through a small cache, so that a value seen before
 * comes back as the same String without allocating. The cache is an open-addressing table of
 * {@link #SLOTS} slots, emptied when half full: a property with few values never misses after
 * warming up, and one with many (message ids) only costs what decoding costs anyway. Values
 * longer than {@link #MAX_CACHED} bytes are decoded every time. Not thread-safe.
 */
final class Utf8Strings {

    static final int SLOTS = 128;
    static final int MAX_CACHED = 64;

    private final byte[][] keys = new byte[SLOTS][];
    private final String[] values = new String[SLOTS];
    private int size;

    /** The string of {@code length} UTF-8 bytes at {@code at}; malformed bytes become U+FFFD, as in decoding. */
    String get(ByteBuffer buffer, int at, int length) {
        if (length > MAX_CACHED) {
            return decode(buffer, at, length);
        }
        int slot = hash(buffer, at, length) & (SLOTS - 1);
        while (keys[slot] != null) {
            if (sameBytes(keys[slot], buffer, at, length)) {
                return values[slot];
            }
            slot = (slot + 1) & (SLOTS - 1);
        }
        if (size >= SLOTS / 2) {
            Arrays.fill(keys, null);
            Arrays.fill(values, null);
            size = 0;
            return get(buffer, at, length);
        }
        byte[] key = new byte[length];
        buffer.get(at, key);
        keys[slot] = key;
        values[slot] = new String(key, StandardCharsets.UTF_8);
        size++;
        return values[slot];
    }

    /**
     * Whether the {@code length} UTF-8 bytes at {@code at} spell exactly {@code text}. Malformed
     * or overlong sequences spell nothing: decoding makes them U+FFFD, which no identifier holds.
     */
    static boolean sameText(ByteBuffer buffer, int at, int length, String text) {
        int end = at + length;
        int i = 0;
        while (at < end) {
            int b = buffer.get(at) & 0xFF;
            int n = b < 0x80 ? 1 : b >= 0xC2 && b < 0xE0 ? 2 : b >= 0xE0 && b < 0xF0 ? 3
                    : b >= 0xF0 && b < 0xF5 ? 4 : 0;
            if (n == 0 || at + n > end) {
                return false;
            }
            int cp = n == 1 ? b : b & (0x7F >> n);
            for (int k = 1; k < n; k++) {
                int c = buffer.get(at + k) & 0xFF;
                if ((c & 0xC0) != 0x80) {
                    return false;
                }
                cp = cp << 6 | c & 0x3F;
            }
            if (n == 3 && (cp < 0x800 || cp >= 0xD800 && cp < 0xE000) || n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) {
                return false;
            }
            at += n;
            if (cp < 0x10000) {
                if (i >= text.length() || text.charAt(i++) != cp) {
                    return false;
                }
            } else if (i + 1 >= text.length() || text.charAt(i++) != Character.highSurrogate(cp)
                    || text.charAt(i++) != Character.lowSurrogate(cp)) {
                return false;
            }
        }
        return i == text.length();
    }

    private static String decode(ByteBuffer buffer, int at, int length) {
        byte[] bytes = new byte[length];
        buffer.get(at, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static boolean sameBytes(byte[] key, ByteBuffer buffer, int at, int length) {
        if (key.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (key[i] != buffer.get(at + i)) {
                return false;
            }
        }
        return true;
    }

    private static int hash(ByteBuffer buffer, int at, int length) {
        int h = 0x811C9DC5;
        for (int i = 0; i < length; i++) {
            h = (h ^ buffer.get(at + i)) * 0x01000193;
        }
        return h ^ h >>> 16;
    }
}
