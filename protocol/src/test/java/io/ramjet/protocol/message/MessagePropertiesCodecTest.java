package io.ramjet.protocol.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class MessagePropertiesCodecTest {

    private static MessageHeaders full() {
        return new MessageHeaders()
                .bodyType(BodyType.MAP)
                .messageId("ID:abc-1")
                .timestamp(1_700_000_000_123L)
                .correlationId("corr")
                .replyTo(MessageHeaders.TEMPORARY_QUEUE, "tmp.1")
                .type("order")
                .deliveryMode(MessageHeaders.NON_PERSISTENT)
                .priority(9)
                .expiration(Long.MAX_VALUE)
                .deliveryTime(-1L)
                .property("nul", null)
                .property("t", true)
                .property("f", false)
                .property("b", Byte.MIN_VALUE)
                .property("s", Short.MAX_VALUE)
                .property("i", Integer.MIN_VALUE)
                .property("l", Long.MAX_VALUE)
                .property("fl", Float.NaN)
                .property("d", -0.0d)
                .property("str", "héllo ✓ 𝄞")
                .property("empty", "");
    }

    private static void assertSame(MessageHeaders expected, MessageHeaders got) {
        assertEquals(expected.bodyType(), got.bodyType());
        assertEquals(expected.messageId(), got.messageId());
        assertEquals(expected.timestamp(), got.timestamp());
        assertEquals(expected.correlationId(), got.correlationId());
        assertArrayEquals(expected.correlationIdBytes(), got.correlationIdBytes());
        assertEquals(expected.replyToKind(), got.replyToKind());
        assertEquals(expected.replyToName(), got.replyToName());
        assertEquals(expected.type(), got.type());
        assertEquals(expected.deliveryMode(), got.deliveryMode());
        assertEquals(expected.priority(), got.priority());
        assertEquals(expected.expiration(), got.expiration());
        assertEquals(expected.deliveryTime(), got.deliveryTime());
        assertEquals(expected.properties(), got.properties());
        assertEquals(expected.properties().keySet().stream().toList(), got.properties().keySet().stream().toList());
    }

    @Test
    void roundTripsEveryHeaderAndPropertyType() {
        MessageHeaders h = full();
        MessageHeaders got = MessagePropertiesCodec.decode(MessagePropertiesCodec.encode(h));
        assertSame(h, got);
        assertEquals(Float.class, got.properties().get("fl").getClass());
        assertEquals(Double.doubleToRawLongBits(-0.0d), Double.doubleToRawLongBits((Double) got.properties().get("d")));
    }

    @Test
    void roundTripsAnEmptySection() {
        MessageHeaders h = new MessageHeaders();
        byte[] bytes = MessagePropertiesCodec.encode(h);
        assertEquals(30, bytes.length, "fixed part and a zero count");
        MessageHeaders got = MessagePropertiesCodec.decode(bytes);
        assertSame(h, got);
        assertNull(got.messageId());
        assertEquals(MessageHeaders.NO_REPLY_TO, got.replyToKind());
    }

    @Test
    void roundTripsACorrelationIdOfBytes() {
        MessageHeaders h = new MessageHeaders().correlationIdBytes(new byte[] {0, -1, 7});
        MessageHeaders got = MessagePropertiesCodec.decode(MessagePropertiesCodec.encode(h));
        assertArrayEquals(new byte[] {0, -1, 7}, got.correlationIdBytes());
        assertNull(got.correlationId());
    }

    @ParameterizedTest
    @ValueSource(bytes = {MessageHeaders.QUEUE, MessageHeaders.TOPIC, MessageHeaders.TEMPORARY_QUEUE, MessageHeaders.TEMPORARY_TOPIC})
    void roundTripsEachReplyToKind(byte kind) {
        MessageHeaders got = MessagePropertiesCodec.decode(MessagePropertiesCodec.encode(new MessageHeaders().replyTo(kind, "r")));
        assertEquals(kind, got.replyToKind());
        assertEquals("r", got.replyToName());
    }

    @ParameterizedTest
    @EnumSource(BodyType.class)
    void roundTripsEachBodyType(BodyType type) {
        assertEquals(type, MessagePropertiesCodec.decode(MessagePropertiesCodec.encode(new MessageHeaders().bodyType(type))).bodyType());
    }

    @Test
    void roundTripsManyAndLongProperties() {
        MessageHeaders h = new MessageHeaders();
        Map<String, Object> expected = new LinkedHashMap<>();
        for (int i = 0; i < 300; i++) {
            h.property("p" + i, "x".repeat(i * 3));
            expected.put("p" + i, "x".repeat(i * 3));
        }
        assertEquals(expected, MessagePropertiesCodec.decode(MessagePropertiesCodec.encode(h)).properties());
    }

    @Test
    void decodesFromABufferSlice() {
        byte[] section = MessagePropertiesCodec.encode(full());
        byte[] record = new byte[section.length + 10];
        System.arraycopy(section, 0, record, 5, section.length);
        ByteBuffer slice = ByteBuffer.wrap(record, 5, section.length).slice();
        assertSame(full(), MessagePropertiesCodec.decode(slice));
        assertSame(full(), MessagePropertiesCodec.decode(ByteBuffer.allocateDirect(section.length).put(section).flip()));
    }

    @Test
    void readsExpirationAndPriorityInPlace() {
        byte[] section = MessagePropertiesCodec.encode(new MessageHeaders().priority(7).expiration(123_456L)
                .type("t").property("a", 1));
        byte[] record = new byte[section.length + 6];
        System.arraycopy(section, 0, record, 6, section.length);
        ByteBuffer at = ByteBuffer.wrap(record).position(6);
        assertEquals(123_456L, MessagePropertiesCodec.expiration(at));
        assertEquals(7, MessagePropertiesCodec.priority(at));
        assertEquals(6, at.position(), "reading in place moves nothing");
        ByteBuffer none = ByteBuffer.wrap(new byte[3]);
        assertEquals(0, MessagePropertiesCodec.expiration(none));
        assertEquals(MessageHeaders.DEFAULT_PRIORITY, MessagePropertiesCodec.priority(none));
        section[0] = 9;
        assertEquals(0, MessagePropertiesCodec.expiration(ByteBuffer.wrap(section)), "another version never expires");
    }

    @Test
    void refusesEveryTruncation() {
        byte[] bytes = MessagePropertiesCodec.encode(full());
        for (int n = 0; n < bytes.length; n++) {
            byte[] cut = Arrays.copyOf(bytes, n);
            assertThrows(MessageFormatError.class, () -> MessagePropertiesCodec.decode(cut), "length " + n);
        }
    }

    @Test
    void refusesTrailingBytesOtherVersionsAndUnknownTags() {
        byte[] bytes = MessagePropertiesCodec.encode(new MessageHeaders().property("a", 1));
        assertThrows(MessageFormatError.class, () -> MessagePropertiesCodec.decode(Arrays.copyOf(bytes, bytes.length + 1)));
        byte[] version = bytes.clone();
        version[0] = 2;
        assertThrows(MessageFormatError.class, () -> MessagePropertiesCodec.decode(version));
        byte[] tag = bytes.clone();
        tag[bytes.length - 5] = ValueCodec.BYTES;
        assertThrows(MessageFormatError.class, () -> MessagePropertiesCodec.decode(tag));
        byte[] mode = bytes.clone();
        mode[2] = 3;
        assertThrows(MessageFormatError.class, () -> MessagePropertiesCodec.decode(mode));
        byte[] priority = bytes.clone();
        priority[3] = 10;
        assertThrows(MessageFormatError.class, () -> MessagePropertiesCodec.decode(priority));
        byte[] bodyType = bytes.clone();
        bodyType[1] = 42;
        assertThrows(MessageFormatError.class, () -> MessagePropertiesCodec.decode(bodyType));
    }

    @Test
    void refusesAHugeCountWithoutAllocating() {
        byte[] bytes = MessagePropertiesCodec.encode(new MessageHeaders());
        byte[] hostile = Arrays.copyOf(bytes, bytes.length + 4);
        System.arraycopy(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07}, 0, hostile, bytes.length - 1, 5);
        assertThrows(MessageFormatError.class, () -> MessagePropertiesCodec.decode(hostile));
    }

    @Test
    void refusesPropertiesOfOtherTypes() {
        assertThrows(IllegalArgumentException.class, () -> new MessageHeaders().property("c", 'c'));
        MessageHeaders h = new MessageHeaders();
        h.properties().put("bytes", new byte[1]);
        assertThrows(IllegalArgumentException.class, () -> MessagePropertiesCodec.encode(h));
    }

    @Test
    void layoutIsStable() {
        byte[] bytes = MessagePropertiesCodec.encode(new MessageHeaders().type("t").timestamp(1).property("a", 1));
        assertArrayEquals(new byte[] {1, 0, 2, 4, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0x10, 1, 't', 1, 1, 'a', ValueCodec.INT, 0, 0, 0, 1}, bytes);
    }
}
