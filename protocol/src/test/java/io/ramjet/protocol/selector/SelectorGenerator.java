package io.ramjet.protocol.selector;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random selectors and messages for fuzzing, deterministic for a seed. {@link #selector} follows
 * the grammar of Jakarta Messaging 3.1, 3.8.1.1 over typed operands, so most results parse, and
 * now and then puts an operand of the wrong type where a typed one belongs; {@link #mutant}
 * damages a generated selector by deleting, repeating, inserting or replacing characters, and
 * sometimes nests it thousands of times. {@link #properties} gives a message's properties with
 * random types, drawn from small pools so that comparisons often hit.
 */
final class SelectorGenerator {

    /** Properties a message may carry, each of a random type; {@code x} is never set. */
    static final List<String> PROPERTIES = List.of("a", "b", "c", "d", "e");

    private static final String[] STRINGS = {"", "a", "ab", "abc", "a_c", "a%c", "red", "it's", "A", "_", "%"};
    private static final String[] NUMBERS = {"0", "1", "2", "-1", "3", "7", "+2", "0.5", "1.5", "-2.5", "2.0",
        "1E0", "5e-1", "7.", ".5", "0x1F", "017", "12L", "2147483648", "-9223372036854775808", "1.0e2", "3d",
        "2.5f", "2147483647", "-2147483648", "0x7FFFFFFF"};
    private static final String[] STRING_IDS = {"JMSType", "JMSCorrelationID", "JMSMessageID", "JMSDeliveryMode"};
    private static final String[] NUMERIC_IDS = {"JMSPriority", "JMSTimestamp"};
    private static final String[] FRAGMENTS = {"(", ")", "'", "''", "NOT ", " AND ", " OR ", " ESCAPE '", "--",
        "\u0000", "\uD800", "\uDC00", "\u001F", "\u007F", "\uFFFF", "99999999999999999999", "0x", "1e999", ".",
        "%", "\\", " IS NULL", " BETWEEN ", " IN (", " LIKE ", ",", "=", "<>", "<=", "*", "/", "+", "-", "TRUE",
        "NULL", "x", "1", "'a'", "0xFFFFFFFFFFFFFFFFF", "1e", "1.2.3", "08", "\t", "\n", "\u00a0", "\u2028", "é",
        "\uD835\uDC9C", " ESCAPE 'ab'", " ESCAPE ''"};

    private final Random random;

    SelectorGenerator(long seed) {
        random = new Random(seed);
    }

    Random random() {
        return random;
    }

    /** A selector made by the grammar; a few in a hundred have an operand of the wrong type. */
    String selector() {
        return condition(0);
    }

    /** A generated selector, damaged. */
    String mutant() {
        String s = selector();
        int edits = 1 + random.nextInt(3);
        for (int i = 0; i < edits; i++) {
            s = mutate(s);
        }
        return s;
    }

    private String mutate(String s) {
        int at = s.isEmpty() ? 0 : random.nextInt(s.length() + 1);
        int end = Math.min(s.length(), at + random.nextInt(8));
        switch (random.nextInt(10)) {
            case 0: return s.substring(0, at) + s.substring(end);
            case 1: return s.substring(0, end) + s.substring(at, end) + s.substring(end);
            case 2: return s.substring(0, at) + pick(FRAGMENTS) + s.substring(at);
            case 3: return s.substring(0, at) + (char) random.nextInt(0x10000) + s.substring(at);
            case 4: return s.substring(0, at) + (char) random.nextInt(0x80) + s.substring(end);
            case 5: return s.substring(0, at);
            case 6: return s.length() < 300 ? deep(s) : s.substring(at);
            case 7: return s.substring(0, at) + keywordCase(pick(FRAGMENTS)) + s.substring(end);
            case 8: return s.substring(at) + s.substring(0, at);
            default: return s.toLowerCase();
        }
    }

    /** The selector under thousands of parentheses, NOTs or signs, or in a long chain of ANDs. */
    private String deep(String s) {
        int n = 500 + random.nextInt(5000);
        switch (random.nextInt(5)) {
            case 0: return "(".repeat(n) + s + ")".repeat(n);
            case 1: return "NOT ".repeat(n) + "(" + s + ")";
            case 2: return "-".repeat(n) + "1 = 1 AND " + s;
            case 3: return "a = 1 AND ".repeat(n) + s;
            default: return "1" + " + 1".repeat(n) + " > 0 OR " + s;
        }
    }

    private String condition(int depth) {
        int choice = depth > 3 ? random.nextInt(7) : random.nextInt(11);
        switch (choice) {
            case 0: return numeric(depth) + " " + pick("=", "<>", "<", "<=", ">", ">=") + " " + numeric(depth);
            case 1: return string(depth) + " " + pick("=", "<>") + " " + string(depth);
            case 2: return bool(depth) + " " + pick("=", "<>") + " " + bool(depth);
            case 3: return numeric(depth) + kw(pick(" BETWEEN ", " NOT BETWEEN ")) + numeric(depth) + kw(" AND ")
                    + numeric(depth);
            case 4: return stringIdentifier() + kw(pick(" IN (", " NOT IN (")) + stringList() + ")";
            case 5: return like();
            case 6: return maybeTyped(pick(identifier(), stringIdentifier(), numericIdentifier()))
                    + kw(pick(" IS NULL", " IS NOT NULL"));
            case 7: return kw("NOT ") + condition(depth + 1);
            case 8: return condition(depth + 1) + kw(pick(" AND ", " OR ")) + condition(depth + 1);
            case 9: return "(" + condition(depth + 1) + ")";
            default: return unlike(depth);
        }
    }

    /** Operands of two different types: mostly refused when both are known, FALSE otherwise. */
    private String unlike(int depth) {
        String[] operands = {numeric(depth), string(depth), bool(depth)};
        int l = random.nextInt(3), r = (l + 1 + random.nextInt(2)) % 3;
        return operands[l] + " " + pick("=", "<>", "<", ">=") + " " + operands[r];
    }

    private String like() {
        String pattern = pick(STRINGS) + pick("", "%", "_", "!%", "!_", "!!") + pick(STRINGS);
        String escape = random.nextInt(3) == 0 ? kw(" ESCAPE ") + "'!'" : "";
        if (escape.isEmpty()) {
            pattern = pattern.replace("!", "");
        }
        return maybeTyped(stringIdentifier()) + kw(pick(" LIKE ", " NOT LIKE ")) + quote(pattern) + escape;
    }

    private String stringList() {
        StringBuilder b = new StringBuilder(quote(pick(STRINGS)));
        for (int i = random.nextInt(4); i > 0; i--) {
            b.append(", ").append(quote(pick(STRINGS)));
        }
        return b.toString();
    }

    private String numeric(int depth) {
        int choice = depth > 3 ? random.nextInt(3) : random.nextInt(6);
        switch (choice) {
            case 0: return identifier();
            case 1: return pick(NUMBERS);
            case 2: return numericIdentifier();
            case 3: return numeric(depth + 1) + " " + pick("+", "-", "*", "/") + " " + numeric(depth + 1);
            case 4: return pick("-", "+") + numeric(depth + 1);
            default: return "(" + numeric(depth + 1) + ")";
        }
    }

    private String string(int depth) {
        switch (random.nextInt(3)) {
            case 0: return identifier();
            case 1: return quote(pick(STRINGS));
            default: return stringIdentifier();
        }
    }

    private String bool(int depth) {
        switch (depth > 3 ? random.nextInt(2) : random.nextInt(3)) {
            case 0: return identifier();
            case 1: return kw(pick("TRUE", "FALSE"));
            default: return "(" + condition(depth + 1) + ")";
        }
    }

    private String identifier() {
        return random.nextInt(8) == 0 ? "x" : pick(PROPERTIES.toArray(new String[0]));
    }

    private String stringIdentifier() {
        return random.nextInt(3) == 0 ? pick(STRING_IDS) : identifier();
    }

    private String numericIdentifier() {
        return random.nextInt(3) == 0 ? pick(NUMERIC_IDS) : identifier();
    }

    /** Sometimes a literal where an identifier belongs. */
    private String maybeTyped(String identifier) {
        return random.nextInt(25) == 0 ? pick("1", "'a'", "TRUE") : identifier;
    }

    private String kw(String keyword) {
        return random.nextInt(4) == 0 ? keywordCase(keyword) : keyword;
    }

    private String keywordCase(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            b.append(random.nextBoolean() ? Character.toLowerCase(c) : c);
        }
        return b.toString();
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    private String pick(String... options) {
        return options[random.nextInt(options.length)];
    }

    /** Properties a..e of random types (or absent); {@code x} is never set. */
    Map<String, Object> properties() {
        Map<String, Object> p = new LinkedHashMap<>();
        for (String name : PROPERTIES) {
            Object v = value();
            if (v != null) {
                p.put(name, v);
            }
        }
        return p;
    }

    private Object value() {
        switch (random.nextInt(10)) {
            case 0: return null;
            case 1: return random.nextBoolean();
            case 2: return (byte) (random.nextInt(7) - 3);
            case 3: return (short) (random.nextInt(7) - 3);
            case 4: return random.nextInt(12) == 0 ? (Object) Integer.MAX_VALUE : (Object) (random.nextInt(7) - 3);
            case 5: return random.nextInt(12) == 0 ? Long.MIN_VALUE : (long) (random.nextInt(7) - 3);
            case 6: return (float) ((random.nextInt(9) - 4) / 2.0);
            case 7: return (random.nextInt(9) - 4) / 2.0;
            default: return pick(STRINGS);
        }
    }

    /** One of the values a JMSType or JMSCorrelationID may take, null included. */
    String headerString() {
        return random.nextInt(3) == 0 ? null : pick(STRINGS);
    }
}
