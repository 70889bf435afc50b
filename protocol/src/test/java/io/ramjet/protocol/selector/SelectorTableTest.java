package io.ramjet.protocol.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The selector grammar of Jakarta Messaging 3.1, 3.8.1, as (selector, message, result) rows:
 * T is TRUE, F is FALSE and U unknown, which selects nothing either. Then invalid selectors.
 */
class SelectorTableTest {

    record Row(String selector, Boolean expected, MapSource message) {
        @Override
        public String toString() {
            return selector + " " + message + " -> " + expected;
        }
    }

    private static final Boolean T = Boolean.TRUE, F = Boolean.FALSE, U = null;
    private static final List<Row> ROWS = new ArrayList<>();

    private static void row(String selector, Boolean expected, Object... keyValues) {
        ROWS.add(new Row(selector, expected, new MapSource(keyValues)));
    }

    static {
        // comparison
        row("i = 5", T, "i", 5);
        row("i = 6", F, "i", 5);
        row("i <> 5", F, "i", 5);
        row("i <> 6", T, "i", 5);
        row("i > 4", T, "i", 5);
        row("i >= 5", T, "i", 5);
        row("i < 5", F, "i", 5);
        row("i <= 5", T, "i", 5);
        row("5 = i", T, "i", 5);
        row("4 < i", T, "i", 5);
        row("i > 5 OR i < 5", F, "i", 5);
        // numeric promotion
        row("i = 5.0", T, "i", 5);
        row("d = 5", T, "d", 5.0d);
        row("l = 5", T, "l", 5L);
        row("b = 5", T, "b", (byte) 5);
        row("s = 5", T, "s", (short) 5);
        row("f > 1.4", T, "f", 1.5f);
        row("f = 1.5", T, "f", 1.5f);
        row("b < s", T, "b", (byte) 1, "s", (short) 2);
        row("i = l", T, "i", 5, "l", 5L);
        row("f = d", T, "f", 1.5f, "d", 1.5d);
        row("i < d", T, "i", 5, "d", 5.5d);
        row("l > f", T, "l", 5L, "f", 4.5f);
        row("l = 5000000000", T, "l", 5_000_000_000L);
        row("s = -300", T, "s", (short) -300);
        row("l = 9223372036854775807", T, "l", Long.MAX_VALUE);
        row("l = -9223372036854775808", T, "l", Long.MIN_VALUE);
        // a float with an int or a long is a float comparison (JLS 5.6.2): the exact value is rounded to float
        row("i = f", T, "i", 16_777_217, "f", 16_777_216f);
        row("i > f", F, "i", 16_777_217, "f", 16_777_216f);
        row("l = f", T, "l", 5_000_000_001L, "f", 5.0E9f);
        row("f < l", F, "f", 5.0E9f, "l", 5_000_000_001L);
        row("f = d", F, "f", 0.1f, "d", 0.1d);
        row("d <> d", F, "d", 1.0);
        row("n = n", F, "n", Double.NaN);
        row("n <> 1", T, "n", Double.NaN);
        // unlike types: FALSE, not unknown
        row("i = 5", F, "i", "5");
        row("i = '5'", F, "i", 5);
        row("c = 5", F, "c", "5");
        row("flag = 1", F, "flag", true);
        row("c = TRUE", F, "c", "true");
        row("i <> 'x'", F, "i", 5);
        row("NOT (i = '5')", T, "i", 5);
        row("a < b", F, "a", "a", "b", "b");
        row("a <> b", F, "a", "a", "b", 1);
        row("a = b", F, "a", true, "b", "true");
        row("JMSType = a", F, "JMSType", "car", "a", 5);
        row("JMSPriority = a", F, "a", "4");
        row("c > 1", F, "c", "5");
        row("flag >= 1", F, "flag", true);
        row("NOT (c <= 1)", T, "c", "5");
        row("c <> 5 OR x = 1", U, "c", "5");
        row("i <> x", U, "i", 5);
        // arithmetic
        row("i + 1 = 6", T, "i", 5);
        row("i - 6 = -1", T, "i", 5);
        row("i * 2 = 10", T, "i", 5);
        row("d / 2 = 2.5", T, "d", 5.0d);
        row("i / 2 = 2", T, "i", 5);
        row("i / 2.0 = 2.5", T, "i", 5);
        row("i / 0 = 1", U, "i", 5);
        row("d / 0 > 1000", T, "d", 5.0d);
        row("i * 1.5 = 7.5", T, "i", 5);
        row("-i = -5", T, "i", 5);
        row("+i = 5", T, "i", 5);
        row("-(i) = -5", T, "i", 5);
        row("- -i = 5", T, "i", 5);
        row("i - -1 = 6", T, "i", 5);
        row("-d = -2.5", T, "d", 2.5d);
        row("i * i = 25", T, "i", 5);
        row("(i + 1) * (i - 1) = 24", T, "i", 5);
        row("2 + 3 * 4 = 14", T);
        row("(2 + 3) * 4 = 20", T);
        row("10 - 2 - 3 = 5", T);
        row("12 / 2 / 3 = 2", T);
        row("-2 * -3 = 6", T);
        row("l * 2 = 10000000000", T, "l", 5_000_000_000L);
        row("l = 5000000001 - 1", T, "l", 5_000_000_000L);
        // Java's numeric promotion: int with int is int and overflows; a long or an L makes it long
        row("i + 2147483647 < 0", T, "i", 1);
        row("b * 65536 * 65536 = 0", T, "b", (byte) 1);
        row("2147483647 + 1 = -2147483648", T);
        row("i + 2147483647L > 0", T, "i", 1);
        row("l + 2147483647 > 0", T, "l", 1L);
        row("i + 2147483648 > 0", T, "i", 1);
        row("-i = -2147483648", T, "i", Integer.MIN_VALUE);
        row("-(i) < 0", T, "i", Integer.MIN_VALUE);
        row("i / -1 < 0", T, "i", Integer.MIN_VALUE);
        // float arithmetic stays float (JLS 5.6.2): 2^24 + 1 rounds back to 2^24
        row("f + 1 = f", T, "f", 16_777_216f);
        row("f + i = f", T, "f", 16_777_216f, "i", 1);
        row("f + l = 16777216", T, "f", 16_777_216f, "l", 1L);
        row("-f - 1 = -f", T, "f", 16_777_216f);
        row("f + 1.0 = f", F, "f", 16_777_216f);
        row("f * 2 = 33554432", T, "f", 16_777_216f);
        row("i + x = 5", U, "i", 5);
        row("x * 2 = 0", U);
        row("c + 1 = 2", U, "c", "1");
        row("-c = -1", U, "c", "1");
        // literals
        row("d = 5E0", T, "d", 5.0d);
        row("d = 50E-1", T, "d", 5.0d);
        row("d = 0.5E1", T, "d", 5.0d);
        row("d = 0.5e+1", T, "d", 5.0d);
        row("d = 7.", T, "d", 7.0d);
        row("d = .5", T, "d", 0.5d);
        row("d = -57.9E2", T, "d", -5790.0d);
        row("d = 7E3", T, "d", 7000.0d);
        row("d = 1.5f", T, "d", 1.5d);
        row("d = 1.5D", T, "d", 1.5d);
        row("i = +62", T, "i", 62);
        row("i = -957", T, "i", -957);
        row("i = 0x1F", T, "i", 31);
        row("i = 0X1f", T, "i", 31);
        row("i = 017", T, "i", 15);
        row("i = 0", T, "i", 0);
        row("l = 12L", T, "l", 12L);
        row("c = 'it''s'", T, "c", "it's");
        row("c = ''", T, "c", "");
        row("c = 'a b'", T, "c", "a b");
        row("c = 'AND'", T, "c", "AND");
        // BETWEEN
        row("i BETWEEN 1 AND 10", T, "i", 5);
        row("i BETWEEN 6 AND 10", F, "i", 5);
        row("i NOT BETWEEN 6 AND 10", T, "i", 5);
        row("i NOT BETWEEN 1 AND 10", F, "i", 5);
        row("i BETWEEN 5 AND 5", T, "i", 5);
        row("i BETWEEN 10 AND 1", F, "i", 5);
        row("x BETWEEN 1 AND 10", U);
        row("x NOT BETWEEN 1 AND 10", U);
        row("i BETWEEN x AND 10", U, "i", 5);
        row("i BETWEEN x AND 4", F, "i", 5);
        row("d BETWEEN 4.5 AND 5.5", T, "d", 5.0d);
        row("i + 1 BETWEEN 6 AND 6", T, "i", 5);
        row("i BETWEEN 1 + 1 AND 2 * 3", T, "i", 5);
        row("NOT (i BETWEEN 1 AND 3)", T, "i", 5);
        row("c BETWEEN 1 AND 3", F, "c", "2");
        row("c NOT BETWEEN 1 AND 3", F, "c", "2");
        row("i NOT BETWEEN c AND 9", F, "i", 5, "c", "1");
        row("i NOT BETWEEN c AND 3", T, "i", 5, "c", 1);
        row("i NOT BETWEEN c AND 3", T, "i", 5, "c", "1");
        row("i NOT BETWEEN 1 AND c", F, "i", 5, "c", "9");
        row("i NOT BETWEEN x AND 3", T, "i", 5);
        row("i NOT BETWEEN x AND 9", U, "i", 5);
        row("JMSPriority BETWEEN 0 AND 9", T);
        row("i BETWEEN 1 AND 10 AND c = 'x'", T, "i", 5, "c", "x");
        // IN
        row("c IN ('red', 'green')", T, "c", "red");
        row("c IN ('red', 'green')", F, "c", "blue");
        row("c NOT IN ('red', 'green')", T, "c", "blue");
        row("c NOT IN ('red', 'green')", F, "c", "red");
        row("c IN ('red')", T, "c", "red");
        row("c IN ('red')", U);
        row("c NOT IN ('red')", U);
        row("c IN ('Red')", F, "c", "red");
        row("c IN ('a', 'b', 'c', 'd', 'red')", T, "c", "red");
        row("NOT c IN ('red')", F, "c", "red");
        // IN and NOT IN of a value that is not a string compare unlike types: FALSE both (3.8.1.1)
        row("i IN ('5')", F, "i", 5);
        row("i NOT IN ('5')", F, "i", 5);
        row("i NOT IN ('foo', 'jms', 'test')", F, "i", 0);
        row("flag NOT IN ('true')", F, "flag", true);
        row("d NOT IN ('2.5')", F, "d", 2.5d);
        row("NOT (i IN ('5'))", T, "i", 5);
        row("i NOT IN ('5') OR c = 'x'", T, "i", 5, "c", "x");
        row("i NOT IN ('5') OR c = 'x'", F, "i", 5, "c", "y");
        row("i NOT IN ('5') OR x = 1", U, "i", 5);
        row("JMSType IN ('car', 'bus')", T, "JMSType", "car");
        // LIKE
        row("c LIKE 'r%'", T, "c", "red");
        row("c LIKE 'r_d'", T, "c", "red");
        row("c LIKE 'r_'", F, "c", "red");
        row("c LIKE '%e%'", T, "c", "red");
        row("c LIKE '%d'", T, "c", "red");
        row("c LIKE '%x'", F, "c", "red");
        row("c LIKE '___'", T, "c", "red");
        row("c LIKE '____'", F, "c", "red");
        row("c LIKE 'red'", T, "c", "red");
        row("c LIKE 'R%'", F, "c", "red");
        row("c NOT LIKE 'r%'", F, "c", "red");
        row("c NOT LIKE '%x'", T, "c", "red");
        row("NOT c LIKE 'b%'", T, "c", "red");
        row("c LIKE '%'", T, "c", "");
        row("c LIKE '_'", F, "c", "");
        row("c LIKE '%%%'", T, "c", "abc");
        row("c LIKE '%b%c'", T, "c", "abbbc");
        row("c LIKE 'a%b%c'", T, "c", "aXbYc");
        row("c LIKE 'a%b%c'", F, "c", "aXcYb");
        row("c LIKE 'a.c'", F, "c", "abc");
        row("c LIKE 'a.c'", T, "c", "a.c");
        row("c LIKE 'a*'", F, "c", "abc");
        row("c LIKE '[a]%'", F, "c", "abc");
        row("c LIKE '(a)%'", T, "c", "(a)bc");
        row("c LIKE '\\_%' ESCAPE '\\'", T, "c", "_x");
        row("c LIKE '\\_%' ESCAPE '\\'", F, "c", "ax");
        row("c LIKE '%!%%' ESCAPE '!'", T, "c", "50%off");
        row("c LIKE '%!%%' ESCAPE '!'", F, "c", "50off");
        row("c LIKE 'a!_c' ESCAPE '!'", F, "c", "abc");
        row("c LIKE 'a!!c' ESCAPE '!'", T, "c", "a!c");
        row("c LIKE 'it''s%'", T, "c", "it's here");
        row("x LIKE 'a%'", U);
        row("x NOT LIKE 'a%'", U);
        // LIKE and NOT LIKE of a value that is not a string compare unlike types: FALSE both (3.8.1.1)
        row("i LIKE '5'", F, "i", 5);
        row("i NOT LIKE '5'", F, "i", 5);
        row("flag NOT LIKE 'f%'", F, "flag", true);
        row("NOT (i LIKE '5')", T, "i", 5);
        row("JMSType NOT LIKE 'c%'", U);
        row("JMSType LIKE 'ca%'", T, "JMSType", "car");
        // IS [NOT] NULL
        row("x IS NULL", T);
        row("x IS NOT NULL", F);
        row("i IS NULL", F, "i", 5);
        row("i IS NOT NULL", T, "i", 5);
        row("c IS NULL", F, "c", "");
        row("c IS NOT NULL AND c <> ''", T, "c", "red");
        row("x IS NULL AND i = 5", T, "i", 5);
        row("x IS NULL OR x = 1", T);
        row("NOT x IS NULL", F);
        row("JMSCorrelationID IS NULL", T);
        row("JMSType IS NULL", T);
        row("JMSMessageID IS NOT NULL", T);
        // booleans
        row("flag = TRUE", T, "flag", true);
        row("flag = FALSE", F, "flag", true);
        row("flag <> TRUE", T, "flag", false);
        row("flag = TRUE", U);
        row("flag = true", T, "flag", true);
        row("flag", T, "flag", true);
        row("flag", F, "flag", false);
        row("flag", U);
        row("NOT flag", T, "flag", false);
        row("flag AND i = 5", T, "flag", true, "i", 5);
        row("i", U, "i", 5);
        row("TRUE", T);
        row("FALSE", F);
        row("NOT FALSE", T);
        row("a = b", T, "a", true, "b", true);
        row("(i = 5) = TRUE", T, "i", 5);
        // three-valued logic
        row("i = 5 AND c = 'red'", T, "i", 5, "c", "red");
        row("i = 5 AND c = 'red'", F, "i", 5, "c", "blue");
        row("i = 5 OR c = 'red'", T, "i", 6, "c", "red");
        row("i = 5 OR c = 'red'", F, "i", 6, "c", "blue");
        row("NOT (i = 6)", T, "i", 5);
        row("NOT (x = 5)", U);
        row("NOT x = 1", U);
        row("x = 1 AND i = 5", U, "i", 5);
        row("x = 1 AND i = 6", F, "i", 5);
        row("i = 6 AND x = 1", F, "i", 5);
        row("x = 1 AND y = 1", U);
        row("x = 1 OR i = 5", T, "i", 5);
        row("i = 5 OR x = 1", T, "i", 5);
        row("x = 1 OR i = 6", U, "i", 5);
        row("x = 1 OR y = 1", U);
        row("NOT (x = 1 OR i = 6)", U, "i", 5);
        row("NOT (x = 1 AND i = 6)", T, "i", 5);
        row("NOT (x = 1 AND i = 5)", U, "i", 5);
        row("NOT (x = 1 OR i = 5)", F, "i", 5);
        row("NOT NOT (i = 5)", T, "i", 5);
        row("(x = 1 OR i = 5) AND c = 'red'", T, "i", 5, "c", "red");
        row("i = 5 AND (c = 'red' OR c = 'blue')", T, "i", 5, "c", "blue");
        row("i = 5 AND NOT c = 'x'", T, "i", 5, "c", "red");
        // precedence: NOT over AND over OR; arithmetic over comparison
        row("i = 6 AND c = 'x' OR i = 5", T, "i", 5);
        row("i = 5 OR i = 6 AND c = 'x'", T, "i", 5);
        row("(i = 5 OR i = 6) AND c = 'x'", U, "i", 5);
        row("NOT i = 6 AND i = 5", T, "i", 5);
        row("i + 2 * 3 = 11", T, "i", 5);
        // case: keywords ignore it, identifiers do not
        row("i between 1 and 10", T, "i", 5);
        row("i BeTwEeN 1 AnD 10", T, "i", 5);
        row("c in ('red')", T, "c", "red");
        row("c like 'r%'", T, "c", "red");
        row("c not like 'x%'", T, "c", "red");
        row("x is null", T);
        row("x is not null", F);
        row("i = 5 and not c = 'x' or false", T, "i", 5, "c", "red");
        row("I = 5", U, "i", 5);
        row("_a = 1", T, "_a", 1);
        row("$b = 1", T, "$b", 1);
        row("a1_$ = 1", T, "a1_$", 1);
        row("ÿber = 1", T, "ÿber", 1);
        row("\u0131n = 1", T, "\u0131n", 1);
        row("\uD835\uDC9C = 1", T, "\uD835\uDC9C", 1);
        row("JMSXGroupID = 'g'", T, "JMSXGroupID", "g");
        row("JMSExpiration = 1", U);
        // headers
        row("JMSType = 'car'", T, "JMSType", "car");
        row("JMSType = 'bus'", F, "JMSType", "car");
        row("JMSPriority = 4", T);
        row("JMSPriority > 5", T, "JMSPriority", 7);
        row("JMSPriority > 5", F, "JMSPriority", 2);
        row("JMSDeliveryMode = 'PERSISTENT'", T);
        row("JMSDeliveryMode = 'NON_PERSISTENT'", T, "JMSDeliveryMode", "NON_PERSISTENT");
        row("JMSDeliveryMode = 'PERSISTENT'", F, "JMSDeliveryMode", "NON_PERSISTENT");
        row("JMSCorrelationID = 'abc'", T, "JMSCorrelationID", "abc");
        row("JMSCorrelationID = 'abd'", F, "JMSCorrelationID", "abc");
        row("JMSMessageID = 'ID:1'", T);
        row("JMSTimestamp > 0", T);
        row("JMSTimestamp BETWEEN 1600000000000 AND 1800000000000", T);
        // whitespace
        row("  i=5  ", T, "i", 5);
        row("i\t=\n5", T, "i", 5);
        row("(((i = 5)))", T, "i", 5);
    }

    static List<Row> rows() {
        return ROWS;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void evaluates(Row row) throws Exception {
        Selector selector = Selector.parse(row.selector());
        assertEquals(row.expected(), selector.evaluate(row.message()));
        assertEquals(Boolean.TRUE.equals(row.expected()), selector.matches(row.message()));
    }

    @Test
    void tableHasMoreThan150Rows() {
        assertTrue(ROWS.size() > 150, "rows: " + ROWS.size());
    }

    static List<String> invalid() {
        return List.of("i =", "= 5", "i = 'abc", "c IN ()", "i BETWEEN 1", "(i = 5", "i = 5)", "i == 5",
                "i = 5 AND", "AND i = 5", "NOT", "i IS 5", "i = 5 5", "c = 'x' OR", "i <>", "i >< 5",
                "IN ('a')", "i NOT 5", "#x = 1", "c LIKE", "c LIKE 'a' ESCAPE", "i BETWEEN AND 5",
                "c LIKE 'a' ESCAPE 'ab'", "c LIKE 'a!' ESCAPE '!'", "c IN ('a',)", "c IN ('a' 'b')",
                "c IN (1, 2)", "5 IN ('a')", "'a' LIKE 'a'", "c LIKE x", "i + 'a' = 1", "'a' < c",
                "TRUE > FALSE", "i + TRUE = 1", "5", "'abc'", "i + 1", "5 AND i = 1", "i = 5 OR 'x'",
                "NOT 5", "x = NULL", "NULL IS NULL", "i IS NOT 5", "i = 12abc", "i = 1.2.3",
                "i = 9223372036854775808", "i = 0x", "i = 1e", "c = 'a' c", "i ! 5", "i & 5",
                "a.b = 1", "i = --", "(", ")", "i BETWEEN 'a' AND 'b'", "-c LIKE 'a'", "5 IS NULL",
                // comparisons of unlike known types, for = and <> as for the ordering operators
                "TRUE = 0", "FALSE = 0", "0 = TRUE", "TRUE <> 'x'", "'x' <> TRUE", "'a' = 1", "1 <> 'a'",
                "1 < 'x'", "TRUE < 1", "'a' = 1.5", "(i = 1) = 1", "'a' = (i = 1)", "i + 1 = 'a'", "-i <> TRUE",
                "'a' = 1 OR i = 1", "NOT 'a' = 1",
                // headers of known type
                "JMSType = 5", "JMSPriority = 'a'", "JMSDeliveryMode = 1", "JMSTimestamp = 'x'",
                "JMSMessageID = TRUE", "JMSCorrelationID <> 0", "JMSPriority LIKE 'a'", "JMSTimestamp IN ('a')",
                "JMSType BETWEEN 1 AND 2", "JMSType + 1 = 2", "JMSType", "-JMSType = 1", "JMSType < 'b'",
                "NOT JMSPriority", "JMSPriority AND i = 1",
                // literals outside the grammar
                "i = 1e999", "i = -1e999", "i = 99999999999999999999", "i = 0xFFFFFFFFFFFFFFFFF", "i = 08",
                "i = 1L5", "i = 0x1.5", "i = \u0661", "c LIKE 'a' ESCAPE ''", "\u0131n = 1 OR c \u0131n ('a')");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void refusesInvalidSelector(String selector) {
        SelectorSyntaxException e = assertThrows(SelectorSyntaxException.class, () -> Selector.parse(selector));
        assertTrue(e.getMessage().contains("at position "), e.getMessage());
    }

    @Test
    void errorNamesPositionAndReason() {
        SelectorSyntaxException e = assertThrows(SelectorSyntaxException.class,
                () -> Selector.parse("color = 'red' AND AND"));
        assertEquals("invalid selector \"color = 'red' AND AND\" at position 19: expected an identifier,"
                + " a literal or '(' but found 'AND'", e.getMessage());
        assertEquals(19, e.position());
    }

    @Test
    void unterminatedStringIsReportedWhereItStarts() {
        SelectorSyntaxException e = assertThrows(SelectorSyntaxException.class, () -> Selector.parse("c = 'abc"));
        assertEquals(5, e.position());
        assertEquals("unterminated string literal", e.reason());
    }

    @Test
    void nullOrBlankSelectorSelectsEverything() throws Exception {
        assertTrue(Selector.parse(null).isEmpty());
        assertTrue(Selector.parse("  ").matches(new MapSource()));
    }
}
