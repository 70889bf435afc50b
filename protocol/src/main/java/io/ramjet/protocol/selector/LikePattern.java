package io.ramjet.protocol.selector;

/**
 * A compiled LIKE pattern: {@code _} matches one char, {@code %} any sequence, the escape char
 * makes the next one literal. Matching is the greedy wildcard walk with one backtrack point,
 * O(pattern x value) in the worst case and allocation-free. Chars are UTF-16 units.
 */
final class LikePattern {

    private static final int ANY_ONE = -1, ANY_SEQUENCE = -2;

    private final int[] codes;

    private LikePattern(int[] codes) {
        this.codes = codes;
    }

    /** @param escape the escape char, or -1; returns null when the pattern ends in an escape */
    static LikePattern compile(String pattern, int escape) {
        int[] codes = new int[pattern.length()];
        int n = 0;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == escape) {
                if (++i == pattern.length()) {
                    return null;
                }
                codes[n++] = pattern.charAt(i);
            } else if (c == '_') {
                codes[n++] = ANY_ONE;
            } else if (c == '%') {
                if (n == 0 || codes[n - 1] != ANY_SEQUENCE) {
                    codes[n++] = ANY_SEQUENCE;
                }
            } else {
                codes[n++] = c;
            }
        }
        return new LikePattern(java.util.Arrays.copyOf(codes, n));
    }

    boolean matches(String value) {
        int p = 0, v = 0, starP = -1, starV = 0;
        while (v < value.length()) {
            if (p < codes.length && (codes[p] == ANY_ONE || codes[p] == value.charAt(v))) {
                p++;
                v++;
            } else if (p < codes.length && codes[p] == ANY_SEQUENCE) {
                starP = p++;
                starV = v;
            } else if (starP >= 0) {
                p = starP + 1;
                v = ++starV;
            } else {
                return false;
            }
        }
        while (p < codes.length && codes[p] == ANY_SEQUENCE) {
            p++;
        }
        return p == codes.length;
    }
}
