package io.ramjet.protocol.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ramjet.protocol.message.HeaderSectionDescriptor;
import io.ramjet.protocol.message.MessageFormatError;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.protocol.message.RawSection;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The in-place view gives a selector what decoding the section would, and what the client sees. */
class HeaderSectionViewTest {

    private static MessageHeaders rich() {
        MessageHeaders h = new MessageHeaders().messageId("ID:7").timestamp(1_700_000_000_123L)
                .correlationId("corr").type("car").deliveryMode(MessageHeaders.NON_PERSISTENT).priority(7)
                .replyTo(MessageHeaders.QUEUE, "replies").expiration(99).deliveryTime(5);
        h.property("s", "text").property("b", (byte) -3).property("sh", (short) 300).property("i", 70_000)
                .property("l", 1L << 40).property("f", 1.5f).property("fbig", 16_777_216f).property("d", -2.25d).property("t", true)
                .property("fa", false).property("nothing", null).property("größe", "groß")
                .property("emoji\uD83D\uDE00", "\uD83D\uDE00").property("long", "x".repeat(200));
        return h;
    }

    private static ByteBuffer section(MessageHeaders h) {
        return ByteBuffer.wrap(MessagePropertiesCodec.encode(h));
    }

    @Test
    void everyHeaderAndPropertyReadsAsDecodingGivesIt() {
        MessageHeaders h = rich();
        HeaderSectionView view = new HeaderSectionView().reset(section(h), 3);
        assertEquals("NON_PERSISTENT", view.get("JMSDeliveryMode"));
        assertEquals(7, view.get("JMSPriority"));
        assertEquals("ID:7", view.get("JMSMessageID"));
        assertEquals(1_700_000_000_123L, ((Number) view.get("JMSTimestamp")).longValue());
        assertEquals("corr", view.get("JMSCorrelationID"));
        assertEquals("car", view.get("JMSType"));
        assertEquals(3L, ((Number) view.get("JMSXDeliveryCount")).longValue());
        for (Map.Entry<String, Object> p : h.properties().entrySet()) {
            Object expected = p.getValue();
            Object got = view.get(p.getKey());
            if (expected instanceof Number n) {
                assertEquals(n.doubleValue(), ((Number) got).doubleValue(), p.getKey());
                assertEquals(Expr.isIntegral(n), Expr.isIntegral(got), p.getKey());
                assertEquals(Expr.isInt(n), Expr.isInt(got), p.getKey());
                assertEquals(Expr.isFloat(n), Expr.isFloat(got), p.getKey());
            } else {
                assertEquals(expected, got, p.getKey());
            }
        }
        assertNull(view.get("absent"));
        assertNull(view.get("gr\u00f6\u00dfe2"));
    }

    @Test
    void selectorsEvaluateOnTheViewAsOnTheDecodedMessage() throws Exception {
        MessageHeaders h = rich();
        PropertySource decoded = id -> switch (id) {
            case "JMSDeliveryMode" -> "NON_PERSISTENT";
            case "JMSPriority" -> h.priority();
            case "JMSMessageID" -> h.messageId();
            case "JMSTimestamp" -> h.timestamp();
            case "JMSCorrelationID" -> h.correlationId();
            case "JMSType" -> h.type();
            case "JMSXDeliveryCount" -> 1;
            default -> h.properties().get(id);
        };
        HeaderSectionView view = new HeaderSectionView().reset(section(h), 1);
        for (String text : List.of("s = 'text'", "b < 0 AND sh = 300", "i > sh", "l = 1099511627776", "f = 1.5",
                "d < -2", "t AND NOT fa", "nothing IS NULL", "größe = 'groß'",
                "long LIKE 'xx%'", "JMSType IN ('car', 'bus')", "JMSPriority BETWEEN 5 AND 9",
                "JMSTimestamp > 1600000000000", "JMSXDeliveryCount = 1", "i + b = 69997", "s = 'other' OR i < 0",
                "JMSDeliveryMode = 'PERSISTENT'", "missing = 1",
                "fbig + 1 = fbig", "i < fbig AND -fbig - 1 = -fbig")) {
            Selector s = Selector.parse(text);
            assertEquals(s.evaluate(decoded), s.evaluate(view), text);
        }
    }

    @Test
    void aSectionInsideALargerBufferIsReadFromItsPosition() throws Exception {
        byte[] encoded = MessagePropertiesCodec.encode(new MessageHeaders().property("color", "red"));
        byte[] padded = new byte[encoded.length + 20];
        System.arraycopy(encoded, 0, padded, 10, encoded.length);
        ByteBuffer section = ByteBuffer.wrap(padded, 10, encoded.length);
        assertEquals(Boolean.TRUE, Selector.parse("color = 'red'").evaluate(new HeaderSectionView().reset(section, 1)));
        assertEquals(10, section.position(), "the view does not move the buffer");
    }

    @Test
    void twoPropertiesOfOneMessageAreTwoValues() throws Exception {
        HeaderSectionView view = new HeaderSectionView()
                .reset(section(new MessageHeaders().property("a", 1).property("b", 2)), 1);
        assertEquals(Boolean.TRUE, Selector.parse("a < b").evaluate(view));
        assertEquals(Boolean.FALSE, Selector.parse("b < a").evaluate(view));
    }

    @Test
    void aReusedViewReadsEachMessageAfresh() throws Exception {
        HeaderSectionView view = new HeaderSectionView();
        Selector s = Selector.parse("color = 'red' AND n > 1");
        assertEquals(Boolean.TRUE, s.evaluate(view.reset(section(new MessageHeaders().property("color", "red")
                .property("n", 5)), 1)));
        assertEquals(null, s.evaluate(view.reset(section(new MessageHeaders().property("color", "red")), 1)));
        assertEquals(Boolean.FALSE, s.evaluate(view.reset(section(new MessageHeaders().property("color", "blue")
                .property("n", 5)), 1)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"empty", "version", "truncated", "trailing", "tag", "body type", "reply-to kind"})
    void aSectionOffTheLayoutHasNoHeadersOrProperties(String damage) {
        byte[] good = MessagePropertiesCodec.encode(new MessageHeaders().replyTo(MessageHeaders.QUEUE, "r").type("t")
                .property("color", "red"));
        byte[] bad = switch (damage) {
            case "body type" -> with(good, HeaderSectionDescriptor.BODY_TYPE_OFFSET, (byte) 42);
            case "reply-to kind" -> with(good, HeaderSectionDescriptor.FIXED_LENGTH, (byte) 9);
            case "empty" -> new byte[0];
            case "version" -> with(good, 0, (byte) 9);
            case "truncated" -> java.util.Arrays.copyOf(good, good.length - 2);
            case "trailing" -> java.util.Arrays.copyOf(good, good.length + 1);
            default -> with(good, good.length - 5, (byte) 42);
        };
        assertThrows(MessageFormatError.class, () -> MessagePropertiesCodec.decode(bad), "decoding refuses it too");
        HeaderSectionView view = new HeaderSectionView().reset(ByteBuffer.wrap(bad), 2);
        assertNull(view.get("color"));
        assertNull(view.get("JMSType"));
        assertNull(view.get("JMSPriority"));
        assertEquals(2L, ((Number) view.get("JMSXDeliveryCount")).longValue());
    }

    @Test
    void aNameThatComesTwiceHasItsLastValueAsDecodingGivesIt() {
        byte[] section = new RawSection().property(utf8("color"), "red").property(utf8("n"), 1)
                .property(utf8("color"), "blue").toBytes();
        assertEquals("blue", MessagePropertiesCodec.decode(section).properties().get("color"));
        assertEquals("blue", new HeaderSectionView().reset(ByteBuffer.wrap(section), 1).get("color"));
    }

    @Test
    void aValueSeenBeforeComesBackAsTheSameString() {
        HeaderSectionView view = new HeaderSectionView();
        Object first = view.reset(section(new MessageHeaders().property("color", "red")), 1).get("color");
        Object second = view.reset(section(new MessageHeaders().property("n", 1).property("color", "red")), 1)
                .get("color");
        assertSame(first, second);
    }

    @Test
    void namesAreComparedExactly() {
        HeaderSectionView view = new HeaderSectionView().reset(section(new MessageHeaders().property("ab", 1)
                .property("\u00e9", 2).property("\uD83D\uDE00", 3)), 1);
        assertNull(view.get("a"));
        assertNull(view.get("abc"));
        assertNull(view.get("e"));
        assertEquals(2L, ((Number) view.get("\u00e9")).longValue());
        assertEquals(3L, ((Number) view.get("\uD83D\uDE00")).longValue());
        assertNull(view.get("\uD83D"));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static byte[] with(byte[] bytes, int at, byte value) {
        byte[] copy = bytes.clone();
        copy[at] = value;
        return copy;
    }
}
