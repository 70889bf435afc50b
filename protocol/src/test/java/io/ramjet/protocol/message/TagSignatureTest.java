package io.ramjet.protocol.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TagSignatureTest {

    private final TagSignature sig = TagSignature.DEFAULT;

    @Test
    void integersOfEveryWidthTagAlike() {
        assertEquals("n=5", TagSignature.tagOf("n", 5));
        assertEquals("n=5", TagSignature.tagOf("n", 5L));
        assertEquals("n=5", TagSignature.tagOf("n", (short) 5));
        assertEquals("n=5", TagSignature.tagOf("n", (byte) 5));
    }

    @Test
    void wholeFloatingValuesTagAsIntegersOthersNotAtAll() {
        assertEquals("d=5", TagSignature.tagOf("d", 5.0d));
        assertEquals("d=-3", TagSignature.tagOf("d", -3.0f));
        assertNull(TagSignature.tagOf("d", 5.5d));
        assertNull(TagSignature.tagOf("d", Double.NaN));
        assertNull(TagSignature.tagOf("d", 1e300));
        assertNull(TagSignature.tagOf("x", null));
    }

    @Test
    void stringsIntegersAndBooleansTagApart() {
        assertEquals("c='5'", TagSignature.tagOf("c", "5"));
        assertEquals("c=TRUE", TagSignature.tagOf("c", true));
        assertEquals("c=FALSE", TagSignature.tagOf("c", false));
        assertNotEquals(sig.maskOf("c='5'"), sig.maskOf("c=5"));
    }

    @Test
    void tagsAreJmsTypeAndPropertiesNotStartingWithJms() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("color", "red");
        p.put("JMSXGroupID", "g");
        p.put("JMS_vendor", 1);
        p.put("f", 1.5f);
        p.put("ok", true);
        assertEquals(List.of("JMSType='car'", "color='red'", "ok=TRUE"), TagSignature.tagsOf("car", p));
    }

    @Test
    void aMaskSetsHashesPerTagBitsAtMost() {
        assertTrue(Long.bitCount(sig.maskOf("color='red'")) <= 3);
        assertTrue(Long.bitCount(sig.maskOf("color='red'")) >= 1);
        assertEquals(1, Long.bitCount(new TagSignature(64, 1).maskOf("x")));
    }

    @Test
    void signatureCoversEachOfItsTags() {
        long s = sig.signatureOf(List.of("a='1'", "b=2", "c=TRUE"));
        assertTrue(TagSignature.mayMatch(s, sig.maskOf("a='1'")));
        assertTrue(TagSignature.mayMatch(s, sig.maskOf("b=2")));
        assertTrue(TagSignature.mayMatch(s, sig.maskOf("a='1'") | sig.maskOf("c=TRUE")));
        assertTrue(TagSignature.mayMatch(s, 0L), "no mask matches everything");
        assertFalse(TagSignature.mayMatch(0L, sig.maskOf("a='1'")));
    }

    @Test
    void signatureOfAHeaderSection() {
        MessageHeaders h = new MessageHeaders().type("car").property("n", 5);
        assertEquals(sig.maskOf("JMSType='car'") | sig.maskOf("n=5"), sig.signatureOf(h));
    }

    @Test
    void masksAreStableAcrossReleasesBecauseTheyAreOnDisk() {
        assertEquals(0x0200000100040000L, sig.maskOf("color='red'"));
        assertEquals(0x2010080000000000L, sig.maskOf("JMSType='car'"));
    }

    @Test
    void differentValuesRarelyCollideAtFullWidth() {
        long red = sig.maskOf("color='red'");
        int collisions = 0;
        for (int i = 0; i < 1000; i++) {
            long other = sig.signatureOf(List.of("color='c" + i + "'"));
            collisions += TagSignature.mayMatch(other, red) ? 1 : 0;
        }
        assertTrue(collisions < 5, "collisions " + collisions);
    }

    @Test
    void aTinyWidthForcesCollisions() {
        TagSignature one = new TagSignature(1, 1);
        assertEquals(1L, one.maskOf("a='x'"));
        assertEquals(1L, one.maskOf("a='y'"));
        assertTrue(TagSignature.mayMatch(one.signatureOf(List.of("a='y'")), one.maskOf("a='x'")));
        TagSignature four = new TagSignature(4, 1);
        for (int i = 0; i < 100; i++) {
            assertEquals(0, four.maskOf("t" + i) & ~0xFL, "bits stay within the width");
        }
    }

    @Test
    void anEncodedSectionHasTheSignatureOfItsHeaders() {
        MessageHeaders h = new MessageHeaders().type("car").property("color", "red").property("n", 5)
                .property("JMSXGroupID", "g");
        byte[] encoded = MessagePropertiesCodec.encode(h);
        byte[] padded = new byte[encoded.length + 8];
        System.arraycopy(encoded, 0, padded, 4, encoded.length);
        assertEquals(sig.signatureOf(List.of("JMSType='car'", "color='red'", "n=5")),
                sig.signatureOfSection(ByteBuffer.wrap(padded, 4, encoded.length)));
    }

    @Test
    void aSectionThatDoesNotDecodeHasNoTags() {
        assertEquals(0, sig.signatureOfSection(ByteBuffer.wrap("p:opaque".getBytes(StandardCharsets.UTF_8))));
        assertEquals(0, sig.signatureOfSection(ByteBuffer.allocate(0)));
    }

    @Test
    void mayMatchAnyNeedsOneCoveredMask() {
        long s = sig.signatureOf(List.of("a='1'"));
        assertTrue(TagSignature.mayMatchAny(s, new long[0]), "no mask matches everything");
        assertTrue(TagSignature.mayMatchAny(s, new long[] {sig.maskOf("b='2'"), sig.maskOf("a='1'")}));
        assertFalse(TagSignature.mayMatchAny(s, new long[] {sig.maskOf("b='2'")}));
    }

    @Test
    void refusesBadConfigurations() {
        assertThrows(IllegalArgumentException.class, () -> new TagSignature(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new TagSignature(65, 1));
        assertThrows(IllegalArgumentException.class, () -> new TagSignature(64, 0));
    }
}
