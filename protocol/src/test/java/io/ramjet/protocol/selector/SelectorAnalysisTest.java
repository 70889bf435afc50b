package io.ramjet.protocol.selector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.protocol.message.TagSignature;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SelectorAnalysisTest {

    private static final TagSignature SIG = TagSignature.DEFAULT;

    private static SelectorAnalysis analyse(String selector) throws Exception {
        return SelectorAnalysis.of(Selector.parse(selector), SIG);
    }

    private static long signature(MapSource m) {
        return SIG.signatureOf(TagSignature.tagsOf((String) m.get("JMSType"), m.properties()));
    }

    @Test
    void stringEqualityBecomesOneMask() throws Exception {
        SelectorAnalysis a = analyse("color = 'red'");
        assertArrayEquals(new long[] {SIG.maskOf("color='red'")}, a.masks());
        assertTrue(a.mayMatch(signature(new MapSource("color", "red"))));
    }

    @Test
    void literalOnTheLeftCounts() throws Exception {
        assertArrayEquals(analyse("color = 'red'").masks(), analyse("'red' = color").masks());
    }

    @Test
    void integerAndBooleanEqualitiesBecomeMasks() throws Exception {
        assertArrayEquals(new long[] {SIG.maskOf("n=5")}, analyse("n = 5").masks());
        assertArrayEquals(new long[] {SIG.maskOf("ok=TRUE")}, analyse("ok = TRUE").masks());
    }

    @Test
    void jmsTypeEqualityBecomesAMask() throws Exception {
        assertArrayEquals(new long[] {SIG.maskOf("JMSType='car'")}, analyse("JMSType = 'car'").masks());
    }

    @Test
    void conjunctionCombinesItsTerms() throws Exception {
        long expected = SIG.maskOf("color='red'") | SIG.maskOf("n=5");
        assertArrayEquals(new long[] {expected}, analyse("color = 'red' AND (n = 5 AND x > 3)").masks());
    }

    @Test
    void inGivesOneMaskPerValue() throws Exception {
        SelectorAnalysis a = analyse("color IN ('red', 'blue') AND n = 5");
        long n = SIG.maskOf("n=5");
        long[] expected = {SIG.maskOf("color='blue'") | n, SIG.maskOf("color='red'") | n};
        long[] got = a.masks();
        Arrays.sort(expected);
        Arrays.sort(got);
        assertArrayEquals(expected, got);
        assertTrue(a.mayMatch(signature(new MapSource("color", "blue", "n", 5L))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"x > 3", "color <> 'red'", "color = 'red' OR n = 5", "NOT color = 'red'",
            "color NOT IN ('red')", "color LIKE 'r%'", "d = 5.5", "JMSPriority = 4",
            "JMSDeliveryMode = 'PERSISTENT'", "JMSCorrelationID = 'a'", "JMSXGroupID = 'g'", "a = b",
            "n + 0 = 5", "flag", "d = 9007199254740993"})
    void selectorsWithoutEqualityTermsYieldNoMask(String selector) throws Exception {
        SelectorAnalysis a = analyse(selector);
        assertFalse(a.hasMask());
        assertTrue(a.mayMatch(0L));
    }

    @Test
    void aLargeIntegerLiteralCanEqualADoubleThatIsTaggedOtherwise() throws Exception {
        Selector s = Selector.parse("d = 9007199254740993");
        MapSource m = new MapSource("d", 9007199254740992.0d);
        assertTrue(s.matches(m));
        assertTrue(SelectorAnalysis.of(s, SIG).mayMatch(signature(m)));
    }

    @Test
    void aLargeIntegerLiteralCanEqualAFloatThatIsTaggedOtherwise() throws Exception {
        Selector s = Selector.parse("f = 16777217 AND c = 'x'");
        MapSource m = new MapSource("f", 16_777_216f, "c", "x");
        assertTrue(s.matches(m), "Java's promotion rounds 16777217 to the float 16777216");
        assertTrue(SelectorAnalysis.of(s, SIG).mayMatch(signature(m)));
        assertTrue(SelectorAnalysis.of(s, SIG).mayMatch(signature(new MapSource("f", 16_777_217, "c", "x"))));
    }

    @Test
    void emptySelectorYieldsNoMask() throws Exception {
        assertFalse(SelectorAnalysis.of(Selector.parse(null), SIG).hasMask());
    }

    @Test
    void tooManyAlternativesDropTheLargestInTerms() throws Exception {
        StringBuilder in = new StringBuilder("a IN (");
        for (int i = 0; i < 40; i++) {
            in.append(i == 0 ? "" : ", ").append('\'').append(i).append('\'');
        }
        in.append(")");
        SelectorAnalysis a = analyse(in + " AND b IN ('x', 'y') AND c = 'z' AND " + in.toString().replace("a IN", "d IN"));
        long z = SIG.maskOf("c='z'");
        long[] expected = {SIG.maskOf("b='x'") | z, SIG.maskOf("b='y'") | z};
        long[] got = a.masks();
        Arrays.sort(expected);
        Arrays.sort(got);
        assertArrayEquals(expected, got);
    }

    @Test
    void aNonMatchingSignatureIsSkipped() throws Exception {
        SelectorAnalysis a = analyse("color = 'red'");
        int skipped = 0;
        for (String c : List.of("green", "blue", "black", "white", "pink", "grey", "cyan", "teal", "gold")) {
            skipped += a.mayMatch(signature(new MapSource("color", c))) ? 0 : 1;
        }
        assertTrue(skipped >= 7, "skipped " + skipped + " of 9");
    }

    @Test
    void tinyWidthForcesCollisionsButNeverLosesAMatch() throws Exception {
        TagSignature tiny = new TagSignature(2, 1);
        Selector s = Selector.parse("color = 'red'");
        SelectorAnalysis a = SelectorAnalysis.of(s, tiny);
        int falsePositives = 0;
        for (int i = 0; i < 50; i++) {
            MapSource m = new MapSource("color", "c" + i);
            long sig = tiny.signatureOf(TagSignature.tagsOf(null, m.properties()));
            if (a.mayMatch(sig)) {
                falsePositives++;
                assertFalse(s.matches(m), "the client check removes the false positive");
            }
        }
        assertTrue(falsePositives > 0, "a 2-bit signature must collide");
        MapSource red = new MapSource("color", "red");
        assertTrue(a.mayMatch(tiny.signatureOf(TagSignature.tagsOf(null, red.properties()))));
    }

    /** The filter's contract: whatever the selector selects, the mask lets through. */
    @Test
    void everyMatchingMessageMayMatch() throws Exception {
        Random random = new Random(42);
        List<String> selectors = List.of("c = 'v1'", "n = 1", "c IN ('v0', 'v2') AND n = 2", "b = TRUE AND c = 'v1'",
                "n = 3 AND d > 0", "JMSType = 't1' AND n IN ('x')", "d = 2", "n = 2 AND b = FALSE", "n = 16777217",
                "d = 16777216 AND c = 16777217");
        Object[] values = {"v0", "v1", "v2", 0, 1, 2, 3L, (short) 2, (byte) 1, 2.0d, 1.0f, 2.5d, true, false, "x",
            16_777_216f, 16_777_217, 16_777_216L};
        for (TagSignature sig : List.of(SIG, new TagSignature(8, 2), new TagSignature(64, 1))) {
            for (String text : selectors) {
                Selector s = Selector.parse(text);
                SelectorAnalysis a = SelectorAnalysis.of(s, sig);
                for (int i = 0; i < 2000; i++) {
                    MapSource m = new MapSource("c", values[random.nextInt(values.length)],
                            "n", values[random.nextInt(values.length)], "b", values[random.nextInt(values.length)],
                            "d", values[random.nextInt(values.length)],
                            "JMSType", random.nextBoolean() ? "t1" : "t2");
                    if (s.matches(m)) {
                        long signature = sig.signatureOf(TagSignature.tagsOf((String) m.get("JMSType"), m.properties()));
                        assertTrue(a.mayMatch(signature), text + " on " + m);
                    }
                }
            }
        }
    }

    @Test
    void propertiesStartingWithJmsAreNotTagged() {
        assertEquals(List.of(), TagSignature.tagsOf(null, Map.of("JMSXGroupID", "g")));
    }
}
