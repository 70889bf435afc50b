package io.ramjet.protocol.selector;

import java.util.Locale;

/**
 * Java numeric literal syntax: for an exact literal an Integer when it has no L suffix and its
 * value fits an int (as Java types an int literal), a Long otherwise, since selectors take exact
 * literals in the whole range of long; a Double for an approximate one.
 */
final class NumericLiterals {

    private NumericLiterals() {
    }

    static Object parse(String literal, boolean negative) {
        String s = literal.replace("_", "");
        String lower = s.toLowerCase(Locale.ROOT);
        boolean hex = lower.startsWith("0x");
        boolean approximate = !hex && (lower.contains(".") || lower.contains("e")
                || lower.endsWith("f") || lower.endsWith("d"));
        if (literal.contains("_") && (literal.startsWith("_") || literal.endsWith("_"))) {
            throw new NumberFormatException(literal);
        }
        if (approximate) {
            if (!lower.matches("(\\d+\\.?\\d*|\\.\\d+)(e[+-]?\\d+)?[fd]?")) {
                throw new NumberFormatException(literal);
            }
            double d = Double.parseDouble(lower.endsWith("f") || lower.endsWith("d")
                    ? lower.substring(0, lower.length() - 1) : lower);
            if (Double.isInfinite(d)) {
                throw new NumberFormatException(literal);
            }
            return negative ? -d : d;
        }
        boolean longSuffix = lower.endsWith("l");
        if (longSuffix) {
            lower = lower.substring(0, lower.length() - 1);
        }
        String digits;
        int radix;
        if (hex) {
            digits = lower.substring(2);
            radix = 16;
        } else if (lower.length() > 1 && lower.startsWith("0")) {
            digits = lower.substring(1);
            radix = 8;
        } else {
            digits = lower;
            radix = 10;
        }
        if (digits.isEmpty() || digits.startsWith("-") || digits.startsWith("+")) {
            throw new NumberFormatException(literal);
        }
        long value;
        if (radix == 10) {
            value = Long.parseLong(negative ? "-" + digits : digits);
        } else {
            value = Long.parseUnsignedLong(digits, radix);
            value = negative ? -value : value;
        }
        return !longSuffix && value == (int) value ? (Object) (int) value : (Object) value;
    }
}
