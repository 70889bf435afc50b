package io.ramjet.protocol.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The walk locates every header and property where the codec wrote it, and checks what it walks. */
class HeaderSectionDescriptorTest {

    private static final int OFFSET = 7;

    /** A section at {@link #OFFSET} of a larger buffer, as a record holds it. */
    private static ByteBuffer inRecord(byte[] section) {
        byte[] record = new byte[OFFSET + section.length + 5];
        System.arraycopy(section, 0, record, OFFSET, section.length);
        return ByteBuffer.wrap(record, OFFSET, section.length);
    }

    private static String stringAt(ByteBuffer section, int at) {
        return ValueCodec.stringAt(section, at, section.limit());
    }

    @Test
    void locatesEachOptionalHeader() {
        ByteBuffer s = inRecord(MessagePropertiesCodec.encode(new MessageHeaders().messageId("ID:1")
                .correlationIdBytes(new byte[] {1, 2}).replyTo(MessageHeaders.TOPIC, "replies").type("car")));
        HeaderSectionDescriptor.check(s);
        assertEquals(OFFSET + HeaderSectionDescriptor.FIXED_LENGTH, HeaderSectionDescriptor.headerAt(s, HeaderSectionDescriptor.MESSAGE_ID));
        assertEquals("ID:1", stringAt(s, HeaderSectionDescriptor.headerAt(s, HeaderSectionDescriptor.MESSAGE_ID)));
        assertEquals(-1, HeaderSectionDescriptor.headerAt(s, HeaderSectionDescriptor.CORRELATION_ID));
        int bytes = HeaderSectionDescriptor.headerAt(s, HeaderSectionDescriptor.CORRELATION_ID_BYTES);
        assertEquals(2, ValueCodec.varintAt(s, bytes, s.limit()));
        int replyTo = HeaderSectionDescriptor.headerAt(s, HeaderSectionDescriptor.REPLY_TO);
        assertEquals(MessageHeaders.TOPIC, s.get(replyTo));
        assertEquals("replies", stringAt(s, replyTo + 1));
        assertEquals("car", stringAt(s, HeaderSectionDescriptor.headerAt(s, HeaderSectionDescriptor.TYPE)));
        assertEquals(0, HeaderSectionDescriptor.propertyCount(s));
        assertEquals(s.limit(), HeaderSectionDescriptor.firstPropertyAt(s), "no properties");
        assertEquals(OFFSET, s.position(), "the walk moves nothing");
    }

    @Test
    void iteratesThePropertiesInTheirOrder() {
        ByteBuffer s = inRecord(MessagePropertiesCodec.encode(new MessageHeaders().type("t").property("a", 1)
                .property("größe", "x").property("n", null).property("d", 2.5d)));
        HeaderSectionDescriptor.check(s);
        List<String> names = new ArrayList<>();
        List<Byte> tags = new ArrayList<>();
        for (int p = HeaderSectionDescriptor.firstPropertyAt(s); p < s.limit(); p = HeaderSectionDescriptor.nextPropertyAt(s, p)) {
            names.add(stringAt(s, p));
            tags.add(s.get(HeaderSectionDescriptor.valueAt(s, p)));
        }
        assertEquals(List.of("a", "größe", "n", "d"), names);
        assertEquals(List.of(ValueCodec.INT, ValueCodec.STRING, ValueCodec.NULL, ValueCodec.DOUBLE), tags);
        assertEquals(4, HeaderSectionDescriptor.propertyCount(s));
    }

    @Test
    void aCheckWithAnIndexReportsInOnePassWhatTheWalksLocate() {
        ByteBuffer s = inRecord(MessagePropertiesCodec.encode(new MessageHeaders().messageId("ID:1")
                .correlationIdBytes(new byte[] {1, 2}).replyTo(MessageHeaders.TOPIC, "replies").type("car")
                .property("a", 1).property("größe", "x").property("d", 2.5d)));
        List<String> reported = new ArrayList<>();
        HeaderSectionDescriptor.check(s, new HeaderSectionDescriptor.SectionIndex() {
            @Override
            public void header(int header, int at) {
                reported.add("header " + header + "@" + at);
            }

            @Override
            public void property(int nameAt, int valueAt) {
                reported.add("property " + nameAt + "/" + valueAt);
            }
        });
        List<String> expected = new ArrayList<>();
        for (int header : new int[] {HeaderSectionDescriptor.MESSAGE_ID, HeaderSectionDescriptor.CORRELATION_ID_BYTES,
                HeaderSectionDescriptor.REPLY_TO, HeaderSectionDescriptor.TYPE}) {
            expected.add("header " + header + "@" + HeaderSectionDescriptor.headerAt(s, header));
        }
        for (int p = HeaderSectionDescriptor.firstPropertyAt(s); p < s.limit(); p = HeaderSectionDescriptor.nextPropertyAt(s, p)) {
            expected.add("property " + p + "/" + HeaderSectionDescriptor.valueAt(s, p));
        }
        assertEquals(expected, reported);
        assertEquals(OFFSET, s.position(), "the walk moves nothing");
    }

    @Test
    void readsTheFixedPartAtItsOffsets() {
        ByteBuffer s = inRecord(MessagePropertiesCodec.encode(new MessageHeaders().bodyType(BodyType.STREAM)
                .deliveryMode(MessageHeaders.NON_PERSISTENT).priority(8).timestamp(11).expiration(22).deliveryTime(33)));
        assertEquals(BodyType.STREAM.code(), s.get(OFFSET + HeaderSectionDescriptor.BODY_TYPE_OFFSET));
        assertEquals(MessageHeaders.NON_PERSISTENT, s.get(OFFSET + HeaderSectionDescriptor.DELIVERY_MODE_OFFSET));
        assertEquals(8, s.get(OFFSET + HeaderSectionDescriptor.PRIORITY_OFFSET));
        assertEquals(11, s.getLong(OFFSET + HeaderSectionDescriptor.TIMESTAMP_OFFSET));
        assertEquals(22, s.getLong(OFFSET + HeaderSectionDescriptor.EXPIRATION_OFFSET));
        assertEquals(33, s.getLong(OFFSET + HeaderSectionDescriptor.DELIVERY_TIME_OFFSET));
        assertEquals(0, HeaderSectionDescriptor.presenceBits(s));
    }

    @Test
    void checkRefusesWhatDecodingRefuses() {
        byte[] good = MessagePropertiesCodec.encode(new MessageHeaders().replyTo(MessageHeaders.QUEUE, "r").property("a", 1));
        HeaderSectionDescriptor.check(inRecord(good));
        for (int n = 0; n < good.length; n++) {
            byte[] cut = java.util.Arrays.copyOf(good, n);
            assertThrows(MessageFormatError.class, () -> HeaderSectionDescriptor.check(inRecord(cut)), "length " + n);
        }
        byte[] kind = good.clone();
        kind[HeaderSectionDescriptor.FIXED_LENGTH] = 5;
        MessageFormatError e = assertThrows(MessageFormatError.class, () -> HeaderSectionDescriptor.check(inRecord(kind)));
        assertEquals("bad reply-to kind 5", e.getMessage());
        byte[] bits = good.clone();
        bits[HeaderSectionDescriptor.PRESENCE_BITS_OFFSET] = 0x20 | HeaderSectionDescriptor.REPLY_TO;
        assertThrows(MessageFormatError.class, () -> HeaderSectionDescriptor.check(inRecord(bits)));
        byte[] both = MessagePropertiesCodec.encode(new MessageHeaders().correlationId("c"));
        both[HeaderSectionDescriptor.PRESENCE_BITS_OFFSET] |= HeaderSectionDescriptor.CORRELATION_ID_BYTES;
        assertThrows(MessageFormatError.class, () -> HeaderSectionDescriptor.check(inRecord(both)));
        byte[] trailing = java.util.Arrays.copyOf(good, good.length + 1);
        e = assertThrows(MessageFormatError.class, () -> HeaderSectionDescriptor.check(inRecord(trailing)));
        assertEquals("1 bytes after the last property", e.getMessage());
    }

    @Test
    void aCheckedSectionDecodesToWhatTheWalkFinds() {
        byte[] section = new RawSection().messageId("m".getBytes(StandardCharsets.UTF_8))
                .type("t".getBytes(StandardCharsets.UTF_8)).property("x".getBytes(StandardCharsets.UTF_8), true).toBytes();
        ByteBuffer s = inRecord(section);
        HeaderSectionDescriptor.check(s);
        MessageHeaders h = MessagePropertiesCodec.decode(s.duplicate());
        assertEquals("m", h.messageId());
        assertEquals("t", h.type());
        assertEquals(Boolean.TRUE, h.properties().get("x"));
    }

    /** Byte sequences that are not UTF-8, each four bytes long to stand in for "wxyz". */
    private static final int[][] MALFORMED_UTF8 = {
        {0x80, 'x', 'y', 'z'},     // a continuation byte first
        {0xC0, 0xAF, 'y', 'z'},    // overlong '/'
        {0xED, 0xA0, 0x80, 'z'},   // a surrogate
        {0xF4, 0x90, 0x80, 0x80},  // above U+10FFFF
        {0xF0, 0x8F, 0xBF, 0xBF},  // overlong in four bytes
        {'w', 'x', 'y', 0xE2},     // cut short
        {0xFF, 'x', 'y', 'z'},     // never in UTF-8
    };

    /** The section with the first "wxyz" replaced by {@code bytes}. */
    private static byte[] replacingWxyz(byte[] section, int[] bytes) {
        byte[] out = section.clone();
        for (int i = 0; i + 4 <= out.length; i++) {
            if (out[i] == 'w' && out[i + 1] == 'x' && out[i + 2] == 'y' && out[i + 3] == 'z') {
                for (int k = 0; k < 4; k++) {
                    out[i + k] = (byte) bytes[k];
                }
                return out;
            }
        }
        throw new AssertionError("no wxyz");
    }

    @Test
    void checkWellFormedRefusesTextThatIsNotUtf8WhereverItIs() {
        List<MessageHeaders> placements = List.of(new MessageHeaders().messageId("wxyz"),
                new MessageHeaders().correlationId("wxyz"), new MessageHeaders().replyTo(MessageHeaders.QUEUE, "wxyz"),
                new MessageHeaders().type("wxyz"), new MessageHeaders().property("wxyz", 1),
                new MessageHeaders().property("a", 1).property("b", "wxyz"));
        for (MessageHeaders placement : placements) {
            byte[] good = MessagePropertiesCodec.encode(placement);
            HeaderSectionDescriptor.checkWellFormed(inRecord(good));
            for (int[] malformed : MALFORMED_UTF8) {
                byte[] bad = replacingWxyz(good, malformed);
                HeaderSectionDescriptor.check(inRecord(bad));
                MessageFormatError e = assertThrows(MessageFormatError.class,
                        () -> HeaderSectionDescriptor.checkWellFormed(inRecord(bad)));
                assertTrue(e.getMessage().startsWith("malformed UTF-8"), e.getMessage());
            }
        }
    }

    @Test
    void checkWellFormedAcceptsEveryTextAStringEncodesTo() {
        HeaderSectionDescriptor.checkWellFormed(inRecord(MessagePropertiesCodec.encode(new MessageHeaders()
                .type("\u00e9\u20ac\ud83d\ude00").property("gr\u00f6\u00dfe", "\u0000\uffff\ud800x")
                .correlationIdBytes(new byte[] {(byte) 0xFF, (byte) 0xC0}))));
    }
}
