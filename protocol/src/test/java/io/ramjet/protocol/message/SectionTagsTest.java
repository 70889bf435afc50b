package io.ramjet.protocol.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The signature read in place is, bit for bit, the signature of the decoded section. */
class SectionTagsTest {

    private static final List<byte[]> NAMES = List.of(utf8("a"), utf8("color"), utf8("n"), utf8(""), utf8("J"),
            utf8("JM"), utf8("JMS"), utf8("JMSXGroupID"), utf8("JMS_vendor"), utf8("jmsLower"), utf8("größe"),
            utf8("\uD83D\uDE00"), new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xC3},
            new byte[] {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD}, new byte[] {'x', (byte) 0xE2, (byte) 0x82});
    private static final List<byte[]> TEXTS = List.of(utf8("red"), utf8(""), utf8("it's"), utf8("5"), utf8("TRUE"),
            utf8("groß"), utf8("\uD83D\uDE00!"), new byte[] {(byte) 0xC0, (byte) 0x80}, new byte[] {(byte) 0xED,
            (byte) 0xA0, (byte) 0x80}, new byte[] {'a', (byte) 0xF8});
    private static final TagSignature[] FUNCTIONS = {TagSignature.DEFAULT, new TagSignature(64, 1),
            new TagSignature(7, 2)};

    @Test
    void theInPlaceSignatureOfManyGeneratedSectionsIsTheDecodedOne() {
        Random random = new Random(20_261_202);
        int tagged = 0, refused = 0;
        for (int n = 0; n < 10_000; n++) {
            byte[] section = random.nextInt(4) == 0 ? encoded(random) : raw(random);
            if (random.nextInt(10) == 0) {
                section[random.nextInt(section.length)] = (byte) random.nextInt(256);
            }
            int offset = random.nextInt(4);
            byte[] padded = new byte[offset + section.length + random.nextInt(4)];
            System.arraycopy(section, 0, padded, offset, section.length);
            for (TagSignature function : FUNCTIONS) {
                long expected = decodedSignature(function, section);
                ByteBuffer at = ByteBuffer.wrap(padded, offset, section.length);
                assertEquals(expected, function.signatureOfSection(at), () -> HexFormat.of().formatHex(section));
                assertEquals(offset, at.position(), "reading in place moves nothing");
                tagged += expected != 0 ? 1 : 0;
                refused += isDecodable(section) ? 0 : 1;
            }
        }
        assertTrue(tagged > 20_000, "tagged " + tagged);
        assertTrue(refused > 500, "refused " + refused);
    }

    @Test
    void aNameThatComesAgainIsTaggedWithItsLastValue() {
        byte[] section = new RawSection().property(utf8("color"), "red").property(utf8("n"), 1)
                .property(utf8("color"), "blue").toBytes();
        TagSignature sig = TagSignature.DEFAULT;
        assertEquals(sig.signatureOf(List.of("color='blue'", "n=1")), sig.signatureOfSection(ByteBuffer.wrap(section)));
    }

    @Test
    void namesThatDecodeAlikeAreTheSameName() {
        byte[] section = new RawSection().property(new byte[] {(byte) 0xFF}, 1)
                .property(new byte[] {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD}, 2).toBytes();
        TagSignature sig = TagSignature.DEFAULT;
        assertEquals(sig.signatureOf(List.of("\uFFFD=2")), sig.signatureOfSection(ByteBuffer.wrap(section)));
    }

    @Test
    void everyLongTagsAsItsDecimalText() {
        TagSignature sig = TagSignature.DEFAULT;
        for (long n : new long[] {0, 7, -7, 10, -10, 99, 100, Long.MAX_VALUE, Long.MIN_VALUE, 1_000_000_000_000_000_000L}) {
            byte[] section = new RawSection().property(utf8("n"), n).toBytes();
            assertEquals(sig.maskOf("n=" + n), sig.signatureOfSection(ByteBuffer.wrap(section)), Long.toString(n));
        }
        byte[] whole = new RawSection().property(utf8("d"), -0x1p63).property(utf8("f"), 3.0f).toBytes();
        assertEquals(sig.maskOf("d=" + Long.MIN_VALUE) | sig.maskOf("f=3"), sig.signatureOfSection(ByteBuffer.wrap(whole)));
    }

    @Test
    void aSectionOfManyPropertiesIsSignedToo() {
        MessageHeaders h = new MessageHeaders().type("bulk");
        for (int i = 0; i < 3 * SectionTags.MAX_IN_PLACE; i++) {
            h.property("p" + i, i);
        }
        long signature = TagSignature.DEFAULT.signatureOfSection(ByteBuffer.wrap(MessagePropertiesCodec.encode(h)));
        assertEquals(TagSignature.DEFAULT.signatureOf(h), signature);
        assertNotEquals(0, signature);
    }

    private static long decodedSignature(TagSignature function, byte[] section) {
        try {
            return function.signatureOf(MessagePropertiesCodec.decode(section));
        } catch (MessageFormatError e) {
            return 0;
        }
    }

    private static boolean isDecodable(byte[] section) {
        try {
            MessagePropertiesCodec.decode(section);
            return true;
        } catch (MessageFormatError e) {
            return false;
        }
    }

    /** A section as a client writes it: every header, well-formed text, each name once. */
    private static byte[] encoded(Random random) {
        MessageHeaders h = new MessageHeaders().messageId(random.nextBoolean() ? "ID:" + random.nextInt() : null)
                .correlationId(random.nextBoolean() ? "c" + random.nextInt(9) : null)
                .priority(random.nextInt(10)).timestamp(random.nextLong());
        if (random.nextBoolean()) {
            h.replyTo(MessageHeaders.TEMPORARY_TOPIC, "replies");
        }
        if (random.nextBoolean()) {
            h.type(new String(TEXTS.get(random.nextInt(TEXTS.size())), StandardCharsets.UTF_8));
        }
        for (int i = random.nextInt(12); i > 0; i--) {
            h.property(new String(NAMES.get(random.nextInt(NAMES.size())), StandardCharsets.UTF_8), value(random));
        }
        return MessagePropertiesCodec.encode(h);
    }

    /** A section as any client might write it: names that come again, malformed UTF-8, many properties. */
    private static byte[] raw(Random random) {
        RawSection section = new RawSection();
        if (random.nextBoolean()) {
            section.messageId(utf8("ID:" + random.nextInt()));
        }
        if (random.nextInt(3) == 0) {
            section.replyTo((byte) (1 + random.nextInt(4)), utf8("q"));
        }
        if (random.nextBoolean()) {
            section.type(TEXTS.get(random.nextInt(TEXTS.size())));
        }
        int count = random.nextInt(20) == 0 ? SectionTags.MAX_IN_PLACE + random.nextInt(20) : random.nextInt(12);
        for (int i = 0; i < count; i++) {
            byte[] name = NAMES.get(random.nextInt(NAMES.size()));
            if (random.nextInt(4) == 0) {
                section.stringProperty(name, TEXTS.get(random.nextInt(TEXTS.size())));
            } else {
                section.property(name, value(random));
            }
        }
        return section.toBytes();
    }

    private static Object value(Random random) {
        return switch (random.nextInt(12)) {
            case 0 -> null;
            case 1 -> random.nextBoolean();
            case 2 -> (byte) random.nextInt();
            case 3 -> (short) random.nextInt();
            case 4 -> random.nextInt(20) - 10;
            case 5 -> random.nextBoolean() ? random.nextLong() : random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
            case 6 -> List.of(2.0f, 2.5f, -0.0f, Float.NaN, Float.POSITIVE_INFINITY, 1e30f).get(random.nextInt(6));
            case 7 -> List.of(5.0d, 5.5d, -0.0d, Double.NaN, 0x1p63, -0x1p63, 1e300, 123456789.0)
                    .get(random.nextInt(8));
            default -> new String(TEXTS.get(random.nextInt(TEXTS.size())), StandardCharsets.UTF_8);
        };
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
