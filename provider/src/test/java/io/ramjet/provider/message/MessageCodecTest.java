package io.ramjet.provider.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.protocol.message.TagSignature;
import io.ramjet.provider.destination.RamjetQueue;
import io.ramjet.provider.destination.RamjetTemporaryTopic;
import io.ramjet.provider.destination.RamjetTopic;
import io.ramjet.protocol.selector.HeaderSectionView;
import io.ramjet.protocol.selector.Selector;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MessageCodecTest {

    private static <T extends RamjetMessage> T roundTrip(T m) throws Exception {
        EncodedMessage e = MessageCodec.encode(m);
        @SuppressWarnings("unchecked")
        T got = (T) MessageCodec.decode(e.properties(), e.body(), SerializationAllowList.DEFAULT);
        assertEquals(m.getClass(), got.getClass());
        return got;
    }

    @Test
    void headersAndPropertiesSurvive() throws Exception {
        RamjetMessage m = new RamjetMessage();
        m.setJMSMessageID("ID:1");
        m.setJMSTimestamp(11);
        m.setJMSCorrelationID("c");
        m.setJMSReplyTo(new RamjetQueue("replies"));
        m.setJMSType("t");
        m.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
        m.setJMSPriority(7);
        m.setJMSExpiration(99);
        m.setJMSDeliveryTime(77);
        m.setBooleanProperty("z", true);
        m.setByteProperty("b", (byte) 1);
        m.setShortProperty("s", (short) 2);
        m.setIntProperty("i", 3);
        m.setLongProperty("l", 4);
        m.setFloatProperty("f", 5.5f);
        m.setDoubleProperty("d", 6.5);
        m.setStringProperty("str", "x");
        m.setStringProperty("nul", null);
        m.setStringProperty("JMSXGroupID", "g");
        m.setIntProperty("JMSXGroupSeq", 1);
        RamjetMessage got = roundTrip(m);
        assertEquals("ID:1", got.getJMSMessageID());
        assertEquals(11, got.getJMSTimestamp());
        assertEquals("c", got.getJMSCorrelationID());
        assertEquals(new RamjetQueue("replies"), got.getJMSReplyTo());
        assertEquals("t", got.getJMSType());
        assertEquals(DeliveryMode.NON_PERSISTENT, got.getJMSDeliveryMode());
        assertEquals(7, got.getJMSPriority());
        assertEquals(99, got.getJMSExpiration());
        assertEquals(77, got.getJMSDeliveryTime());
        assertEquals(Collections.list(m.getPropertyNames()), Collections.list(got.getPropertyNames()));
        for (String name : Collections.list(m.getPropertyNames())) {
            assertEquals(m.getObjectProperty(name), got.getObjectProperty(name), name);
        }
    }

    @Test
    void priorityIsReadInPlaceWithoutDecoding() throws Exception {
        RamjetMessage m = new RamjetMessage();
        m.setJMSMessageID("ID:2");
        m.setJMSPriority(8);
        m.setStringProperty("p", "v");
        ByteBuffer section = ByteBuffer.allocate(3 + MessageCodec.encode(m).properties().length);
        section.put(new byte[3]).put(MessageCodec.encode(m).properties()).flip().position(3);
        assertEquals(8, MessageCodec.priorityOf(section));
        assertEquals(3, section.position());
    }

    @Test
    void aSectionTooShortForThePriorityHasTheDefault() {
        assertEquals(jakarta.jms.Message.DEFAULT_PRIORITY, MessageCodec.priorityOf(ByteBuffer.wrap(new byte[2])));
    }

    @Test
    void aBytesBodyHandedToASendIsNotChangedByLaterWritesOrAClearedBody() throws Exception {
        RamjetBytesMessage m = new RamjetBytesMessage();
        m.writeBytes(new byte[] {1, 2, 3});
        byte[] sent = MessageCodec.encode(m).body();
        m.writeBytes(new byte[] {4});
        byte[] sentAgain = MessageCodec.encode(m).body();
        m.clearBody();
        m.writeBytes(new byte[] {9, 9, 9, 9, 9});

        assertArrayEquals(new byte[] {1, 2, 3}, sent);
        assertArrayEquals(new byte[] {1, 2, 3, 4}, sentAgain);
        m.reset();
        assertArrayEquals(new byte[] {9, 9, 9, 9, 9}, MessageCodec.encode(m).body());
    }

    @Test
    void bytesMessagesReceivedFromOneBufferReadTheirOwnBytesAndCannotChangeThem() throws Exception {
        RamjetBytesMessage a = new RamjetBytesMessage();
        a.writeInt(7);
        a.writeUTF("a");
        EncodedMessage ea = MessageCodec.encode(a);
        ByteBuffer carrier = ByteBuffer.allocate(2 + ea.body().length + 4);
        carrier.put(new byte[] {5, 6}).put(ea.body()).put(new byte[] {(byte) 0xEE, 1, 2, 3});
        ByteBuffer firstBody = carrier.asReadOnlyBuffer().position(2).limit(2 + ea.body().length);
        ByteBuffer secondBody = carrier.asReadOnlyBuffer().position(2 + ea.body().length).limit(carrier.capacity());
        MessageHeaders secondHeaders = MessageCodec.headersOf(new RamjetBytesMessage());

        RamjetBytesMessage first = (RamjetBytesMessage) MessageCodec.decode(ByteBuffer.wrap(ea.properties()), firstBody,
                SerializationAllowList.DEFAULT);
        RamjetBytesMessage second = (RamjetBytesMessage) MessageCodec.decode(
                ByteBuffer.wrap(MessagePropertiesCodec.encode(secondHeaders)), secondBody, SerializationAllowList.DEFAULT);

        assertEquals(ea.body().length, first.getBodyLength());
        assertEquals(7, first.readInt());
        assertEquals("a", first.readUTF());
        assertEquals(-1, first.readBytes(new byte[1]));
        assertEquals(4, second.getBodyLength());
        byte[] got = new byte[8];
        assertEquals(4, second.readBytes(got));
        assertArrayEquals(new byte[] {(byte) 0xEE, 1, 2, 3}, Arrays.copyOf(got, 4));
        byte[] owned = first.getBody(byte[].class);
        owned[0] = 99;
        first.reset();
        assertEquals(7, first.readInt(), "the body handed out is a copy");
        assertEquals(2, firstBody.position(), "the carrier's views are untouched");
        assertThrows(MessageNotWriteableException.class, () -> second.writeByte((byte) 1));
    }

    @Test
    void aDecodedMessageIsReadOnly() throws Exception {
        RamjetTextMessage got = roundTrip(new RamjetTextMessage("x"));
        assertThrows(MessageNotWriteableException.class, () -> got.setText("y"));
        assertThrows(MessageNotWriteableException.class, () -> got.setIntProperty("a", 1));
    }

    @Test
    void correlationIdBytesAndTemporaryReplyToSurvive() throws Exception {
        RamjetMessage m = new RamjetMessage();
        m.setJMSCorrelationIDAsBytes(new byte[] {1, 2});
        m.setJMSReplyTo(new RamjetTemporaryTopic("tmp", null));
        RamjetMessage got = roundTrip(m);
        assertArrayEquals(new byte[] {1, 2}, got.getJMSCorrelationIDAsBytes());
        assertNull(got.getJMSCorrelationID());
        assertInstanceOf(jakarta.jms.TemporaryTopic.class, got.getJMSReplyTo());
        assertEquals("tmp", ((jakarta.jms.Topic) got.getJMSReplyTo()).getTopicName());
    }

    @Test
    void deliveryCountDoesNotTravel() throws Exception {
        RamjetMessage m = new RamjetMessage();
        m.setDeliveryCount(3);
        assertNull(roundTrip(m).getObjectProperty("JMSXDeliveryCount"));
    }

    @Test
    void textBodies() throws Exception {
        assertEquals("héllo ✓ 𝄞", roundTrip(new RamjetTextMessage("héllo ✓ 𝄞")).getText());
        assertEquals("", roundTrip(new RamjetTextMessage("")).getText());
        assertNull(roundTrip(new RamjetTextMessage()).getText());
    }

    @Test
    void bytesBody() throws Exception {
        RamjetBytesMessage m = new RamjetBytesMessage();
        m.writeInt(42);
        m.writeUTF("x");
        RamjetBytesMessage got = roundTrip(m);
        assertEquals(7, got.getBodyLength());
        assertEquals(42, got.readInt());
        assertEquals("x", got.readUTF());
        assertEquals(0, roundTrip(new RamjetBytesMessage()).getBodyLength());
    }

    @Test
    void mapBodyWithEveryValueType() throws Exception {
        RamjetMapMessage m = new RamjetMapMessage();
        m.setBoolean("z", true);
        m.setByte("b", (byte) 1);
        m.setShort("s", (short) 2);
        m.setChar("c", 'c');
        m.setInt("i", 3);
        m.setLong("l", 4);
        m.setFloat("f", 5.5f);
        m.setDouble("d", 6.5);
        m.setString("str", "x");
        m.setString("nul", null);
        m.setBytes("bytes", new byte[] {9});
        RamjetMapMessage got = roundTrip(m);
        assertEquals(Collections.list(m.getMapNames()), Collections.list(got.getMapNames()));
        for (String name : Collections.list(m.getMapNames())) {
            Object expected = m.getObject(name);
            if (expected instanceof byte[] b) {
                assertArrayEquals(b, (byte[]) got.getObject(name));
            } else {
                assertEquals(expected, got.getObject(name), name);
            }
        }
        assertNull(roundTrip(new RamjetMapMessage()).getBody(Map.class));
    }

    @Test
    void streamBodyWithEveryValueType() throws Exception {
        RamjetStreamMessage m = new RamjetStreamMessage();
        List<Object> values = List.of(true, (byte) 1, (short) 2, 'c', 3, 4L, 5.5f, 6.5d, "x");
        for (Object v : values) {
            m.writeObject(v);
        }
        m.writeObject(null);
        m.writeBytes(new byte[] {9, 8});
        RamjetStreamMessage got = roundTrip(m);
        for (Object v : values) {
            assertEquals(v, got.readObject());
        }
        assertNull(got.readObject());
        assertArrayEquals(new byte[] {9, 8}, (byte[]) got.readObject());
    }

    @Test
    void theBrokerSeesTheSameHeadersAndTags() throws Exception {
        RamjetTextMessage m = new RamjetTextMessage("x");
        m.setJMSType("car");
        m.setStringProperty("color", "red");
        m.setLongProperty("n", 5);
        EncodedMessage e = MessageCodec.encode(m);
        MessageHeaders h = MessagePropertiesCodec.decode(e.properties());
        assertEquals(TagSignature.DEFAULT.signatureOf(List.of("JMSType='car'", "color='red'", "n=5")),
                TagSignature.DEFAULT.signatureOf(h));
        Selector s = Selector.parse("color = 'red' AND n = 5 AND JMSType = 'car' AND JMSPriority = 4");
        assertEquals(Boolean.TRUE, s.evaluate(new HeaderSectionView().reset(ByteBuffer.wrap(e.properties()), 1)));
        assertEquals(Boolean.TRUE, s.evaluate(m));
    }

    @Test
    void refusesCorruptBytes() throws Exception {
        EncodedMessage e = MessageCodec.encode(new RamjetTextMessage("x"));
        assertThrows(MessageFormatException.class, () -> MessageCodec.decode(new byte[3], e.body(), SerializationAllowList.DEFAULT));
        assertThrows(MessageFormatException.class, () -> MessageCodec.decode(e.properties(), new byte[] {7}, SerializationAllowList.DEFAULT));
        EncodedMessage map = MessageCodec.encode(new RamjetMapMessage());
        assertThrows(MessageFormatException.class, () -> MessageCodec.decode(map.properties(), new byte[] {5}, SerializationAllowList.DEFAULT));
    }

    @Test
    void aTopicReplyToSurvives() throws Exception {
        RamjetMessage m = new RamjetMessage();
        m.setJMSReplyTo(new RamjetTopic("news"));
        assertEquals(new RamjetTopic("news"), roundTrip(m).getJMSReplyTo());
    }
}
