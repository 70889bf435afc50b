package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.InvalidSelectorException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Message selectors from a seeded generator and from a table the specification settles
 * (Jakarta Messaging 3.1, 3.8.1), on each provider through {@code jakarta.jms} only.
 *
 * <p>{@link #createConsumerAcceptsOrRaisesInvalidSelectorException}: whatever the text,
 * {@code createConsumer} succeeds or raises {@link InvalidSelectorException}, nothing else.
 * Texts are made by a small grammar, then some are damaged (characters deleted, repeated,
 * inserted, replaced: control characters, lone surrogates, quotes, huge numbers, a second
 * ESCAPE character), and a few are nested thousands deep. The seed is printed;
 * {@code -Dselector.fuzz.seed=N} replays it.
 *
 * <p>{@link #selectsWhatTheSpecificationSays}: five messages with properties of various types
 * (one without any), then a sentinel, go to a fresh queue; a consumer with
 * {@code (selector) OR zz_sentinel = TRUE} reads up to the sentinel, and the messages read are
 * exactly those for which the selector is TRUE. Rows where Artemis departs from the text are
 * skipped there, naming the section.
 */
class SelectorFuzzTest {

    private static final int GENERATED = 1200;

    private static final String NULL_EQUALITY = "Artemis deviation: NULL = NULL is TRUE and 1 = NULL FALSE;"
            + " spec 3.8.1.2: comparison with an unknown value is unknown";
    private static final String UNLIKE_NOT_EQUAL = "Artemis deviation: <> of unlike types is TRUE; spec 3.8.1.1 makes"
            + " any comparison of unlike types FALSE";
    private static final String NON_BOOLEAN_CONDITION = "Artemis deviation: a string property used as a condition is"
            + " FALSE, so NOT of it TRUE; spec 3.8.1.1: conditions are made of identifiers with boolean values,"
            + " and selectors do not convert property types";
    private static final String INTEGER_DIVISION = "Artemis deviation: 5 / 2 is 2.5; spec 3.8.1.1: arithmetic uses"
            + " Java numeric promotion, so two integers divide as integers";
    private static final String SHORT_AGAINST_LONG = "Artemis deviation: a long on the left of a comparison with a"
            + " byte or short is FALSE; spec 3.8.1.1: numeric values compare after Java numeric promotion";
    private static final String IN_UNLIKE = "Artemis deviation: IN of a non-string is unknown; spec 3.8.1.1 makes"
            + " a comparison of unlike types FALSE, so NOT of it TRUE";
    private static final String NOT_LIKE_UNLIKE = "Artemis deviation: NOT LIKE of a non-string is TRUE; spec 3.8.1.1"
            + " makes [NOT] LIKE a comparison of a String identifier and any comparison of unlike types FALSE";

    // ---- createConsumer on generated and damaged texts

    @ProviderTest
    void createConsumerAcceptsOrRaisesInvalidSelectorException(Jms jms) throws Exception {
        long seed = Long.getLong("selector.fuzz.seed", System.nanoTime());
        System.out.println("SelectorFuzzTest[" + jms.providerName() + "] seed " + seed
                + " (replay with -Dselector.fuzz.seed=" + seed + ")");
        Texts texts = new Texts(new Random(seed));
        Session session = jms.session();
        Queue queue = jms.queue(session, "fuzz");
        List<String> wrong = new ArrayList<>();
        int accepted = 0, refused = 0;
        List<String> inputs = new ArrayList<>(Texts.deep());
        for (int i = 0; i < GENERATED; i++) {
            inputs.add(i % 2 == 0 ? texts.selector() : texts.mutant());
        }
        for (String text : inputs) {
            try {
                session.createConsumer(queue, text).close();
                accepted++;
            } catch (InvalidSelectorException expected) {
                refused++;
            } catch (Throwable t) {
                wrong.add(t + " for " + abbreviate(text));
            }
        }
        System.out.println("SelectorFuzzTest[" + jms.providerName() + "]: " + inputs.size() + " selectors, " + accepted
                + " accepted, " + refused + " refused, " + wrong.size() + " other exceptions");
        assertTrue(wrong.isEmpty(), "seed " + seed + ": " + wrong);
        assertTrue(accepted > inputs.size() / 4 && refused > inputs.size() / 10, accepted + " accepted, " + refused + " refused");
    }

    private static String abbreviate(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "... (" + s.length() + " chars)" : s;
    }

    /** A small grammar of selectors over properties a..d of any type and a missing x, and damage to them. */
    static final class Texts {
        private static final String[] IDS = {"a", "b", "c", "d", "x", "JMSPriority", "JMSType", "JMSTimestamp",
            "JMSCorrelationID", "JMSDeliveryMode", "JMSMessageID"};
        private static final String[] LITERALS = {"1", "-2", "0.5", "7.", ".5", "1E3", "0x1F", "017", "12L",
            "'red'", "''", "'it''s'", "TRUE", "false", "9223372036854775807", "-9223372036854775808"};
        private static final String[] DAMAGE = {"(", ")", "'", "NOT ", " AND ", " OR ", " ESCAPE 'ab'", " ESCAPE ''",
            "\u0000", "\uD800", "\uDC00", "\u001B", "\uFFFF", "99999999999999999999", "1e999", "0x", "08", "1.2.3",
            "%", "\\", " IS NULL", " BETWEEN ", " IN (", " LIKE ", ",", "=", "<>", "<", "*", "-", "NULL",
            "\uD835\uDC9C", "\u0131n", "\u00a0", "\t", "\n", "/*", "--"};

        private final Random random;

        Texts(Random random) {
            this.random = random;
        }

        /** Thousands of levels of parentheses, NOT, signs, AND and arithmetic. */
        static List<String> deep() {
            return List.of("(".repeat(3000) + "a = 1" + ")".repeat(3000), "(".repeat(3000), "NOT ".repeat(3000) + "a = 1",
                    "-".repeat(3000) + "a = 1", "a = " + "- ".repeat(3000) + "1", "a = 1" + " AND a = 1".repeat(3000),
                    "a" + " + 1".repeat(3000) + " > 0", "a IN (" + "'v', ".repeat(3000) + "'v')");
        }

        String selector() {
            return condition(0);
        }

        String mutant() {
            String s = selector();
            for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
                int at = random.nextInt(s.length() + 1);
                int end = Math.min(s.length(), at + random.nextInt(6));
                switch (random.nextInt(6)) {
                    case 0 -> s = s.substring(0, at) + s.substring(end);
                    case 1 -> s = s.substring(0, end) + s.substring(at, end) + s.substring(end);
                    case 2 -> s = s.substring(0, at) + pick(DAMAGE) + s.substring(at);
                    case 3 -> s = s.substring(0, at) + (char) random.nextInt(0x10000) + s.substring(end);
                    case 4 -> s = s.substring(0, at);
                    default -> s = s.substring(0, at) + pick(DAMAGE) + s.substring(end);
                }
            }
            return s;
        }

        private String condition(int depth) {
            switch (random.nextInt(depth > 2 ? 6 : 9)) {
                case 0: return operand(depth) + " " + pick("=", "<>", "<", "<=", ">", ">=") + " " + operand(depth);
                case 1: return operand(depth) + pick(" BETWEEN ", " NOT BETWEEN ") + operand(depth) + " AND "
                        + operand(depth);
                case 2: return pick(IDS) + pick(" IN (", " NOT IN (") + "'red', 'a'" + ")";
                case 3: return pick(IDS) + pick(" LIKE ", " NOT LIKE ") + pick("'r%'", "'_e_'", "'a!_%' ESCAPE '!'");
                case 4: return pick(IDS) + pick(" IS NULL", " IS NOT NULL");
                case 5: return pick(IDS);
                case 6: return "NOT " + condition(depth + 1);
                case 7: return condition(depth + 1) + pick(" AND ", " OR ") + condition(depth + 1);
                default: return "(" + condition(depth + 1) + ")";
            }
        }

        private String operand(int depth) {
            switch (random.nextInt(depth > 2 ? 2 : 4)) {
                case 0: return pick(IDS);
                case 1: return pick(LITERALS);
                case 2: return operand(depth + 1) + " " + pick("+", "-", "*", "/") + " " + operand(depth + 1);
                default: return pick("-", "+", "") + "(" + operand(depth + 1) + ")";
            }
        }

        private String pick(String... options) {
            return options[random.nextInt(options.length)];
        }
    }

    // ---- the table: which of five messages a selector selects

    /**
     * The five messages, by zz_id. 0: numbers and a string as their names say (sh a short); 1: other
     * values; 2: nothing; 3: the same names with other types; 4: a double where 0 has an int.
     */
    private static final List<Map<String, Object>> MESSAGES = List.of(
            Map.of("i", 5, "s", "red", "b", true, "d", 2.5d, "f", 1.5f, "l", 5L, "sh", (short) 2),
            Map.of("i", 7, "s", "blue", "b", false),
            Map.of(),
            Map.of("i", "5", "s", 5, "b", "true"),
            Map.of("i", 5.0d, "s", "r_d", "b", true));

    record Case(String selector, Set<Integer> selected, String artemisDeviation) {
        @Override
        public String toString() {
            return selector + " -> " + selected;
        }
    }

    private static Case selects(String selector, Integer... ids) {
        return new Case(selector, new TreeSet<>(List.of(ids)), null);
    }

    private static Case artemisDeviates(String why, String selector, Integer... ids) {
        return new Case(selector, new TreeSet<>(List.of(ids)), why);
    }

    static List<Case> cases() {
        return List.of(
                // NULL (3.8.1.2): a missing property is NULL, comparison with it unknown
                selects("x IS NULL", 0, 1, 2, 3, 4),
                selects("i IS NULL", 2),
                selects("i IS NOT NULL", 0, 1, 3, 4),
                selects("x = 1"),
                selects("NOT (x = 1)"),
                artemisDeviates(NULL_EQUALITY, "NOT (1 = x)"),
                artemisDeviates(NULL_EQUALITY, "x = y"),
                // three-valued AND, OR, NOT (3.8.1.2, tables 3-4 to 3-6)
                selects("x = 1 OR i = 5", 0, 4),
                selects("x = 1 AND i = 5"),
                selects("NOT (x = 1 AND i = 7)", 0, 3, 4),
                selects("NOT (x = 1 OR i = 7)"),
                selects("b AND i = 5", 0, 4),
                selects("b OR x = 1", 0, 4),
                artemisDeviates(NON_BOOLEAN_CONDITION, "NOT b", 1),
                // unlike types compare FALSE (3.8.1.1), so NOT of it is TRUE
                selects("i = 5", 0, 4),
                selects("NOT (i = 5)", 1, 3),
                artemisDeviates(UNLIKE_NOT_EQUAL, "i <> 5", 1),
                selects("b = TRUE", 0, 4),
                artemisDeviates(UNLIKE_NOT_EQUAL, "b <> FALSE", 0, 4),
                // strings: = and <> only
                selects("s = 'red'", 0),
                artemisDeviates(UNLIKE_NOT_EQUAL, "s <> 'red'", 1, 4),
                // BETWEEN is >= AND <=, NOT BETWEEN is < OR > (3.8.1.1)
                selects("i BETWEEN 5 AND 7", 0, 1, 4),
                selects("i NOT BETWEEN 6 AND 7", 0, 4),
                selects("d BETWEEN 2 AND 3", 0),
                selects("i BETWEEN x AND 9"),
                selects("i NOT BETWEEN x AND 6", 1),
                // [NOT] IN compares a String identifier (3.8.1.1): NULL gives unknown, another type FALSE
                selects("s IN ('red', 'blue')", 0, 1),
                selects("x IN ('red')"),
                selects("x NOT IN ('red')"),
                selects("s NOT IN ('red')", 1, 4),
                selects("i NOT IN ('5', 'foo')"),
                artemisDeviates(IN_UNLIKE, "NOT (s IN ('red'))", 1, 3, 4),
                // LIKE, with and without ESCAPE
                selects("s LIKE 'r_d'", 0, 4),
                selects("s LIKE 'r\\_d' ESCAPE '\\'", 4),
                selects("s LIKE 'r!_%' ESCAPE '!'", 4),
                selects("s LIKE '%e%'", 0, 1),
                artemisDeviates(NOT_LIKE_UNLIKE, "s NOT LIKE 'r%'", 1),
                selects("NOT (s LIKE 'r%')", 1, 3),
                selects("x LIKE '%'"),
                // numeric promotion: exact and approximate compare and compute together
                selects("f = 1.5", 0),
                selects("l = 5", 0),
                artemisDeviates(NULL_EQUALITY, "i = l", 0),
                selects("l = i AND l IS NOT NULL", 0),
                selects("d < i", 0),
                selects("f * 2 = 3", 0),
                artemisDeviates(INTEGER_DIVISION, "i / 2 = 2", 0),
                selects("i / 2.0 = 2.5", 0, 4),
                selects("i + d = 7.5", 0),
                selects("-i = -5.0", 0, 4),
                selects("sh < 5000000000", 0),
                artemisDeviates(SHORT_AGAINST_LONG, "-5000000000 <= sh", 0),
                // two ints add as ints (Java's promotion) and overflow; a double does not
                selects("i + 2147483647 < 0", 0, 1));
    }

    @ProviderRows("cases")
    void selectsWhatTheSpecificationSays(Jms jms, Case row) throws Exception {
        if (row.artemisDeviation() != null) {
            jms.skipOnArtemis(row.artemisDeviation());
        }
        Session session = jms.session();
        Queue queue = jms.queue(session, "spec");
        MessageProducer producer = session.createProducer(queue);
        for (int id = 0; id < MESSAGES.size(); id++) {
            Message m = session.createMessage();
            m.setIntProperty("zz_id", id);
            for (Map.Entry<String, Object> p : MESSAGES.get(id).entrySet()) {
                m.setObjectProperty(p.getKey(), p.getValue());
            }
            producer.send(m);
        }
        Message sentinel = session.createMessage();
        sentinel.setBooleanProperty("zz_sentinel", true);
        producer.send(sentinel);

        MessageConsumer consumer = session.createConsumer(queue, "(" + row.selector() + ") OR zz_sentinel = TRUE");
        Set<Integer> selected = new TreeSet<>();
        for (Message m = consumer.receive(Jms.RECEIVE_MS); ; m = consumer.receive(Jms.RECEIVE_MS)) {
            assertNotNull(m, "the sentinel always matches");
            if (m.propertyExists("zz_sentinel")) {
                break;
            }
            selected.add(m.getIntProperty("zz_id"));
        }
        assertEquals(row.selected(), selected);
    }
}
