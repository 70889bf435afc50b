package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** Body round trips and the read-only / write-only rules of each message type (section 3.11). */
class MessageBodyTest {

    private static Message roundTrip(Jms jms, Session session, Message m) throws Exception {
        Queue q = jms.queue(session, "body");
        session.createProducer(q).send(m);
        Message got = session.createConsumer(q).receive(Jms.RECEIVE_MS);
        assertTrue(got != null, "message must arrive");
        return got;
    }

    @ProviderTest
    void textBodyRoundTrips(Jms jms) throws Exception {
        Session s = jms.session();
        String text = "héllo wörld ✓ " + "x".repeat(100_000);
        assertEquals(text, ((TextMessage) roundTrip(jms, s, s.createTextMessage(text))).getText());
    }

    @ProviderTest
    void nullTextRoundTrips(Jms jms) throws Exception {
        Session s = jms.session();
        assertNull(((TextMessage) roundTrip(jms, s, s.createTextMessage())).getText());
    }

    @ProviderTest
    void bytesBodyRoundTripsEveryType(Jms jms) throws Exception {
        Session s = jms.session();
        BytesMessage m = s.createBytesMessage();
        m.writeBoolean(true);
        m.writeByte((byte) -2);
        m.writeShort((short) 300);
        m.writeChar('z');
        m.writeInt(70_000);
        m.writeLong(5_000_000_000L);
        m.writeFloat(1.5f);
        m.writeDouble(2.25);
        m.writeUTF("utf ✓");
        m.writeBytes(new byte[] {1, 2, 3});
        m.writeObject(42);
        BytesMessage got = (BytesMessage) roundTrip(jms, s, m);
        assertTrue(got.readBoolean());
        assertEquals(-2, got.readByte());
        assertEquals(300, got.readShort());
        assertEquals('z', got.readChar());
        assertEquals(70_000, got.readInt());
        assertEquals(5_000_000_000L, got.readLong());
        assertEquals(1.5f, got.readFloat());
        assertEquals(2.25, got.readDouble());
        assertEquals("utf ✓", got.readUTF());
        byte[] three = new byte[3];
        assertEquals(3, got.readBytes(three));
        assertArrayEquals(new byte[] {1, 2, 3}, three);
        assertEquals(42, got.readInt());
        assertEquals(-1, got.readBytes(new byte[1]));
    }

    @ProviderTest
    void bytesBodyLengthIsKnownOnceReadable(Jms jms) throws Exception {
        Session s = jms.session();
        BytesMessage m = s.createBytesMessage();
        m.writeBytes(new byte[10]);
        assertThrows(MessageNotReadableException.class, m::getBodyLength);
        m.reset();
        assertEquals(10, m.getBodyLength());
    }

    @ProviderTest
    void bytesMessageIsWriteOnlyUntilReset(Jms jms) throws Exception {
        BytesMessage m = jms.session().createBytesMessage();
        m.writeInt(1);
        assertThrows(MessageNotReadableException.class, m::readInt);
        m.reset();
        assertEquals(1, m.readInt());
        assertThrows(MessageNotWriteableException.class, () -> m.writeInt(2));
    }

    @ProviderTest
    void receivedBytesMessageIsReadOnlyUntilClearBody(Jms jms) throws Exception {
        Session s = jms.session();
        BytesMessage m = s.createBytesMessage();
        m.writeInt(1);
        BytesMessage got = (BytesMessage) roundTrip(jms, s, m);
        assertThrows(MessageNotWriteableException.class, () -> got.writeInt(2));
        got.clearBody();
        got.writeInt(3);
        got.reset();
        assertEquals(3, got.readInt());
    }

    @ProviderTest
    void mapBodyRoundTripsEveryType(Jms jms) throws Exception {
        Session s = jms.session();
        MapMessage m = s.createMapMessage();
        m.setBoolean("bo", true);
        m.setByte("by", (byte) 1);
        m.setShort("sh", (short) 2);
        m.setChar("ch", 'c');
        m.setInt("in", 3);
        m.setLong("lo", 4L);
        m.setFloat("fl", 5.5f);
        m.setDouble("do", 6.5);
        m.setString("st", "s");
        m.setBytes("bs", new byte[] {9});
        m.setObject("ob", 7);
        MapMessage got = (MapMessage) roundTrip(jms, s, m);
        assertTrue(got.getBoolean("bo"));
        assertEquals(1, got.getByte("by"));
        assertEquals(2, got.getShort("sh"));
        assertEquals('c', got.getChar("ch"));
        assertEquals(3, got.getInt("in"));
        assertEquals(4L, got.getLong("lo"));
        assertEquals(5.5f, got.getFloat("fl"));
        assertEquals(6.5, got.getDouble("do"));
        assertEquals("s", got.getString("st"));
        assertArrayEquals(new byte[] {9}, got.getBytes("bs"));
        assertEquals(7, got.getObject("ob"));
        List<String> names = new ArrayList<>(Collections.list(got.getMapNames()));
        Collections.sort(names);
        assertEquals(List.of("bo", "bs", "by", "ch", "do", "fl", "in", "lo", "ob", "sh", "st"), names);
        assertTrue(got.itemExists("in"));
        assertFalse(got.itemExists("nope"));
    }

    @ProviderTest
    void mapConvertsLikeProperties(Jms jms) throws Exception {
        MapMessage m = jms.session().createMapMessage();
        m.setInt("in", 3);
        assertEquals(3L, m.getLong("in"));
        assertEquals("3", m.getString("in"));
        assertThrows(MessageFormatException.class, () -> m.getShort("in"));
        assertThrows(MessageFormatException.class, () -> m.getBytes("in"));
        m.setString("s", "12");
        assertEquals(12, m.getInt("s"));
        assertThrows(NumberFormatException.class, () -> m.getInt("missing"));
        assertNull(m.getString("missing"));
    }

    @ProviderTest
    void receivedMapMessageIsReadOnly(Jms jms) throws Exception {
        Session s = jms.session();
        MapMessage m = s.createMapMessage();
        m.setInt("a", 1);
        MapMessage got = (MapMessage) roundTrip(jms, s, m);
        assertThrows(MessageNotWriteableException.class, () -> got.setInt("b", 2));
    }

    @ProviderTest
    void streamBodyRoundTripsInOrder(Jms jms) throws Exception {
        Session s = jms.session();
        StreamMessage m = s.createStreamMessage();
        m.writeBoolean(false);
        m.writeInt(7);
        m.writeString("x");
        m.writeBytes(new byte[] {4, 5});
        m.writeDouble(1.25);
        m.writeObject(null);
        StreamMessage got = (StreamMessage) roundTrip(jms, s, m);
        assertFalse(got.readBoolean());
        assertEquals(7, got.readInt());
        assertEquals("x", got.readString());
        byte[] two = new byte[2];
        assertEquals(2, got.readBytes(two));
        assertArrayEquals(new byte[] {4, 5}, two);
        assertEquals(-1, got.readBytes(two));
        assertEquals(1.25, got.readDouble());
        assertNull(got.readObject());
        assertThrows(MessageEOFException.class, got::readInt);
    }

    @ProviderTest
    void streamConvertsWhatItWrote(Jms jms) throws Exception {
        StreamMessage m = jms.session().createStreamMessage();
        m.writeShort((short) 5);
        m.writeString("9");
        m.writeInt(1);
        m.reset();
        assertEquals(5L, m.readLong());
        assertEquals(9, m.readInt());
        assertThrows(MessageFormatException.class, m::readShort);
    }

    @ProviderTest
    void streamMessageIsWriteOnlyUntilReset(Jms jms) throws Exception {
        StreamMessage m = jms.session().createStreamMessage();
        m.writeInt(1);
        assertThrows(MessageNotReadableException.class, m::readInt);
        m.reset();
        assertThrows(MessageNotWriteableException.class, () -> m.writeInt(2));
    }

    @ProviderTest
    void objectBodyRoundTrips(Jms jms) throws Exception {
        Session s = jms.session();
        ArrayList<String> list = new ArrayList<>(List.of("a", "b"));
        ObjectMessage got = (ObjectMessage) roundTrip(jms, s, s.createObjectMessage(list));
        assertEquals(list, got.getObject());
    }

    @ProviderTest
    void objectMessageCopiesTheObjectAtSet(Jms jms) throws Exception {
        Session s = jms.session();
        ArrayList<String> list = new ArrayList<>(List.of("a"));
        ObjectMessage m = s.createObjectMessage(list);
        list.add("later");
        ObjectMessage got = (ObjectMessage) roundTrip(jms, s, m);
        assertEquals(List.of("a"), got.getObject());
    }

    @ProviderTest
    void receivedTextMessageIsReadOnlyUntilClearBody(Jms jms) throws Exception {
        Session s = jms.session();
        TextMessage got = (TextMessage) roundTrip(jms, s, s.createTextMessage("a"));
        assertThrows(MessageNotWriteableException.class, () -> got.setText("b"));
        got.clearBody();
        assertNull(got.getText());
        got.setText("c");
        assertEquals("c", got.getText());
    }

    @ProviderTest
    void receivedPropertiesAreReadOnlyUntilClearProperties(Jms jms) throws Exception {
        Session s = jms.session();
        Message m = s.createMessage();
        m.setIntProperty("a", 1);
        Message got = roundTrip(jms, s, m);
        assertThrows(MessageNotWriteableException.class, () -> got.setIntProperty("b", 2));
        got.clearProperties();
        assertFalse(got.propertyExists("a"));
        got.setIntProperty("b", 2);
        assertEquals(2, got.getIntProperty("b"));
    }

    @ProviderTest
    void getBodyGivesTheBodyAsTheAskedType(Jms jms) throws Exception {
        Session s = jms.session();
        TextMessage t = s.createTextMessage("t");
        assertEquals("t", t.getBody(String.class));
        assertTrue(t.isBodyAssignableTo(String.class));
        assertFalse(t.isBodyAssignableTo(byte[].class));
        assertThrows(MessageFormatException.class, () -> t.getBody(byte[].class));
        MapMessage m = s.createMapMessage();
        m.setInt("a", 1);
        assertEquals(Map.of("a", 1), m.getBody(Map.class));
        assertTrue(s.createMessage().isBodyAssignableTo(Integer.class));
    }

    @ProviderTest
    void getBodyOfAMessageWithoutBodyIsNull(Jms jms) throws Exception {
        jms.skipOnArtemis("Artemis deviation: Message.getBody on a new plain Message throws MessageFormatException"
                + " where the javadoc of getBody says it returns null when the message has no body");
        assertNull(jms.session().createMessage().getBody(String.class));
    }

    @ProviderTest
    void getBodyOfAReceivedBytesMessageGivesItsBytes(Jms jms) throws Exception {
        Session s = jms.session();
        BytesMessage b = (BytesMessage) roundTrip(jms, s, bytes(s, new byte[] {1, 2}));
        assertArrayEquals(new byte[] {1, 2}, b.getBody(byte[].class));
    }

    @ProviderTest
    void streamMessageHasNoBodyToGet(Jms jms) throws Exception {
        StreamMessage m = jms.session().createStreamMessage();
        assertThrows(MessageFormatException.class, () -> m.getBody(Object.class));
        assertFalse(m.isBodyAssignableTo(Object.class));
    }

    private static BytesMessage bytes(Session s, byte[] content) throws Exception {
        BytesMessage b = s.createBytesMessage();
        b.writeBytes(content);
        return b;
    }
}
