package io.ramjet.protocol.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Any text either compiles or raises {@link SelectorSyntaxException}: no other exception or
 * error, however deep, long or malformed. The hostile texts run on a thread with a small stack
 * (256 KiB), where the deepest may run the stack out before a limit refuses them; the limits
 * themselves are met on a thread with half the default stack.
 */
class SelectorRobustnessTest {

    private static final long SMALL_STACK = 256 * 1024;
    /** Half of what a thread gets by default on 64-bit Linux. */
    private static final long ORDINARY_STACK = 512 * 1024;

    static List<String> hostile() {
        List<String> s = new ArrayList<>();
        s.add("(".repeat(5000) + "i = 1" + ")".repeat(5000));
        s.add("(".repeat(5000));
        s.add(")".repeat(5000));
        s.add("NOT ".repeat(10_000));
        s.add("-".repeat(10_000));
        s.add("-".repeat(10_000) + "i");
        s.add("i = " + "-".repeat(10_000));
        s.add("i = " + "+-".repeat(5000) + "x");
        s.add("i" + " + 1".repeat(10_000) + " > 0");
        s.add("i" + " * -i".repeat(10_000) + " > 0");
        s.add("i BETWEEN " + "(".repeat(3000) + "1" + ")".repeat(3000) + " AND 2");
        s.add("c IN (" + "'a', ".repeat(10_000) + ")");
        s.add("c LIKE '" + "%_".repeat(10_000) + "'");
        s.add("'" + "''".repeat(10_000));
        s.add("c = 'unterminated");
        s.add("c = '");
        s.add("'");
        s.add("c LIKE 'a' ESCAPE 'ab'");
        s.add("c LIKE 'a' ESCAPE ''");
        s.add("c LIKE 'a' ESCAPE");
        s.add("c LIKE 'a' ESCAPE 'a' ESCAPE 'b'");
        s.add("c LIKE 'a!' ESCAPE '!'");
        s.add("c LIKE 'a' ESCAPE '\uD800'");
        s.add("i = 99999999999999999999999999999999999999");
        s.add("i = -99999999999999999999999999999999999999");
        s.add("i = " + "9".repeat(5000));
        s.add("i = 1" + "0".repeat(400) + ".0");
        s.add("i = 1e99999999999");
        s.add("i = 1e-99999999999");
        s.add("i = 0x");
        s.add("i = 0xg");
        s.add("i = 0x" + "F".repeat(40));
        s.add("i = 0" + "7".repeat(40));
        s.add("i = 09");
        s.add("i = 1.");
        s.add("i = .");
        s.add("i = ..5");
        s.add("i = 1e+");
        s.add("i = 1e-");
        s.add("i = 5LL");
        s.add("i = 5fL");
        s.add("i = -");
        s.add("\u0000");
        s.add("i = 1\u0000");
        s.add("\u0000i = 1");
        s.add("i\u0007 = 1");
        s.add("i = '\u0000'");
        s.add("\uD800");
        s.add("\uDC00 = 1");
        s.add("i\uD800 = 1");
        s.add("c = '\uD800'");
        s.add("\uD835\uDC9C = 1");
        s.add("\uFFFF");
        s.add("\uFEFFi = 1");
        s.add("i\u00a0= 1");
        s.add("i\u2028= 1");
        s.add("i = 1 --comment");
        s.add("i = 1 /* x */");
        s.add("i = NULL");
        s.add("NULL");
        s.add("NULL IS NULL");
        s.add("IS NULL");
        s.add("i IS");
        s.add("i IS NOT");
        s.add("i NOT");
        s.add("i NOT IN");
        s.add("i IN (");
        s.add("i IN ('a'");
        s.add("i IN ('a',");
        s.add("i BETWEEN");
        s.add("i BETWEEN 1 AND");
        s.add(",");
        s.add("()");
        s.add("i = ()");
        s.add("TRUE = 0");
        s.add("JMSType = 5");
        s.add("ESCAPE");
        s.add("i LIKE");
        return s;
    }

    @ParameterizedTest(name = "{index}")
    @MethodSource("hostile")
    void anyTextCompilesOrRaisesSelectorSyntaxException(String selector) throws Throwable {
        Throwable thrown = onSmallStack(() -> {
            Selector s = Selector.parse(selector);
            s.evaluate(new MapSource("i", 5, "c", "a"));
        });
        if (thrown != null && !(thrown instanceof SelectorSyntaxException)) {
            fail("threw " + thrown + " for " + abbreviate(selector), thrown);
        }
    }

    @Test
    void parenthesesNestUpToTheLimit() throws Throwable {
        int n = Parser.MAX_NESTING;
        assertEquals(null, onStack(ORDINARY_STACK, () -> Selector.parse("(".repeat(n) + "i = 1" + ")".repeat(n))));
        SelectorSyntaxException e = assertThrows(SelectorSyntaxException.class,
                () -> Selector.parse("(".repeat(n + 1) + "i = 1" + ")".repeat(n + 1)));
        assertEquals("parentheses are nested more than " + n + " deep", e.reason());
        assertEquals(n + 1, e.position());
    }

    @Test
    void aTreeAsDeepAsTheLimitEvaluatesOnASmallStack() throws Throwable {
        String deepest = "i" + " + 1".repeat(Parser.MAX_DEPTH - 3) + " > 0";
        assertEquals(null, onSmallStack(() -> assertEquals(Boolean.TRUE,
                Selector.parse(deepest).evaluate(new MapSource("i", 5)))));
    }

    @Test
    void aLongChainOfArithmeticIsRefusedPastTheDepthLimit() {
        SelectorSyntaxException e = assertThrows(SelectorSyntaxException.class,
                () -> Selector.parse("i" + " + 1".repeat(Parser.MAX_DEPTH) + " > 0"));
        assertEquals("the expression is nested more than " + Parser.MAX_DEPTH + " levels deep", e.reason());
    }

    @Test
    void longChainsOfAndOrNotAndSignsCompileAndEvaluate() throws Throwable {
        assertEquals(null, onSmallStack(() -> {
            MapSource m = new MapSource("i", 5);
            assertEquals(Boolean.TRUE, Selector.parse("i = 5" + " AND i = 5".repeat(20_000)).evaluate(m));
            assertEquals(Boolean.TRUE, Selector.parse("i = 1" + " OR i = 2".repeat(20_000) + " OR i = 5").evaluate(m));
            assertEquals(Boolean.FALSE, Selector.parse("NOT ".repeat(20_001) + "i = 5").evaluate(m));
            assertEquals(Boolean.TRUE, Selector.parse("NOT ".repeat(20_000) + "i = 5").evaluate(m));
            assertEquals(Boolean.TRUE, Selector.parse("-".repeat(20_001) + "i = -5").evaluate(m));
            assertEquals(Boolean.TRUE, Selector.parse("i = " + "- ".repeat(20_000) + "5").evaluate(m));
            assertEquals(Boolean.TRUE, Selector.parse("- -9223372036854775808 = -9223372036854775808").evaluate(m));
        }));
    }

    @Test
    void anEvenRunOfNotsOrMinusSignsStillRequiresItsType() throws Exception {
        assertThrows(SelectorSyntaxException.class, () -> Selector.parse("NOT NOT 5"));
        assertThrows(SelectorSyntaxException.class, () -> Selector.parse("- - 'a' = 1"));
        assertEquals(null, Selector.parse("(NOT NOT n) = b").evaluate(new MapSource("n", 5, "b", true)),
                "NOT of a number is unknown, and so is NOT NOT of it");
        assertEquals(null, Selector.parse("- - c = 1").evaluate(new MapSource("c", "1")),
                "a sign on a string is unknown, and so are two");
    }

    private static Throwable onSmallStack(Action action) throws InterruptedException {
        return onStack(SMALL_STACK, action);
    }

    private static Throwable onStack(long stackSize, Action action) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(null, () -> {
            try {
                action.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, "selector-stack-" + stackSize, stackSize);
        t.start();
        t.join();
        return thrown.get();
    }

    @FunctionalInterface
    interface Action {
        void run() throws Exception;
    }

    private static String abbreviate(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "... (" + s.length() + " chars)" : s;
    }
}
