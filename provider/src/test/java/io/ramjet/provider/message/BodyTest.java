package io.ramjet.provider.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BodyTest {

    // ---- TextMessage

    @Test
    void textIsReadOnlyOnceReceivedAndWritableAfterClearBody() throws Exception {
        RamjetTextMessage m = new RamjetTextMessage("a");
        m.setReadOnly();
        assertThrows(MessageNotWriteableException.class, () -> m.setText("b"));
        assertEquals("a", m.getText());
        m.clearBody();
        assertNull(m.getText());
        m.setText("b");
        assertEquals("b", m.getText());
    }

    @Test
    void textGetBody() throws Exception {
        RamjetTextMessage m = new RamjetTextMessage("a");
        assertEquals("a", m.getBody(String.class));
        assertEquals("a", m.getBody(Object.class));
        assertThrows(MessageFormatException.class, () -> m.getBody(byte[].class));
        assertTrue(m.isBodyAssignableTo(CharSequence.class));
        assertFalse(m.isBodyAssignableTo(Map.class));
        m.clearBody();
        assertNull(m.getBody(Map.class), "no body: any type, null");
        assertTrue(m.isBodyAssignableTo(Map.class));
    }

    @Test
    void plainMessageHasNoBody() throws Exception {
        RamjetMessage m = new RamjetMessage();
        assertNull(m.getBody(String.class));
        assertTrue(m.isBodyAssignableTo(Integer.class));
    }

    @Test
    void headersStayWritableOnAReceivedMessage() throws Exception {
        RamjetMessage m = new RamjetMessage();
        m.setReadOnly();
        m.setJMSType("t");
        m.setJMSPriority(9);
        assertEquals("t", m.getJMSType());
        assertThrows(jakarta.jms.JMSException.class, () -> m.setJMSPriority(10));
        assertThrows(jakarta.jms.JMSException.class, () -> m.setJMSDeliveryMode(3));
    }

    @Test
    void correlationIdAsStringOrBytes() throws Exception {
        RamjetMessage m = new RamjetMessage();
        m.setJMSCorrelationID("abc");
        assertArrayEquals("abc".getBytes(java.nio.charset.StandardCharsets.UTF_8), m.getJMSCorrelationIDAsBytes());
        m.setJMSCorrelationIDAsBytes(new byte[] {1, 2});
        assertArrayEquals(new byte[] {1, 2}, m.getJMSCorrelationIDAsBytes());
        assertNull(m.getJMSCorrelationID());
        assertEquals(null, m.get("JMSCorrelationID"));
    }

    @Test
    void headerDefaults() {
        RamjetMessage m = new RamjetMessage();
        assertEquals(jakarta.jms.DeliveryMode.PERSISTENT, m.getJMSDeliveryMode());
        assertEquals(4, m.getJMSPriority());
        assertEquals("PERSISTENT", m.get("JMSDeliveryMode"));
        assertEquals(4, m.get("JMSPriority"));
    }

    // ---- BytesMessage

    @Test
    void bytesWriteResetRead() throws Exception {
        RamjetBytesMessage m = new RamjetBytesMessage();
        m.writeBoolean(true);
        m.writeByte((byte) -1);
        m.writeShort((short) -2);
        m.writeChar('c');
        m.writeInt(3);
        m.writeLong(4);
        m.writeFloat(5.5f);
        m.writeDouble(6.5);
        m.writeUTF("héllo");
        m.writeBytes(new byte[] {7, 8, 9}, 1, 2);
        m.writeObject(10);
        assertThrows(MessageNotReadableException.class, m::readInt);
        assertThrows(MessageNotReadableException.class, m::getBodyLength);
        m.reset();
        assertThrows(MessageNotWriteableException.class, () -> m.writeInt(1));
        assertEquals(1 + 1 + 2 + 2 + 4 + 8 + 4 + 8 + (2 + 6) + 2 + 4, m.getBodyLength());
        assertTrue(m.readBoolean());
        assertEquals(255, m.readUnsignedByte());
        assertEquals(65534, m.readUnsignedShort());
        assertEquals('c', m.readChar());
        assertEquals(3, m.readInt());
        assertEquals(4, m.readLong());
        assertEquals(5.5f, m.readFloat());
        assertEquals(6.5, m.readDouble());
        assertEquals("héllo", m.readUTF());
        byte[] two = new byte[2];
        assertEquals(2, m.readBytes(two));
        assertArrayEquals(new byte[] {8, 9}, two);
        assertEquals(10, m.readInt());
        assertThrows(MessageEOFException.class, m::readByte);
        assertEquals(-1, m.readBytes(two));
    }

    @Test
    void bytesShortReadIsEofAndKeepsPosition() throws Exception {
        RamjetBytesMessage m = new RamjetBytesMessage();
        m.writeShort((short) 7);
        m.reset();
        assertThrows(MessageEOFException.class, m::readInt);
        assertEquals(7, m.readShort());
    }

    @Test
    void bytesReadBytesInPieces() throws Exception {
        RamjetBytesMessage m = new RamjetBytesMessage();
        m.writeBytes(new byte[] {1, 2, 3, 4, 5});
        m.reset();
        byte[] b = new byte[2];
        assertEquals(2, m.readBytes(b));
        assertEquals(2, m.readBytes(b, 2));
        assertEquals(1, m.readBytes(b));
        assertEquals(-1, m.readBytes(b));
        assertThrows(IndexOutOfBoundsException.class, () -> m.readBytes(b, 3));
    }

    @Test
    void bytesWriteObjectRefusesOtherTypesAndNull() {
        RamjetBytesMessage m = new RamjetBytesMessage();
        assertThrows(MessageFormatException.class, () -> m.writeObject(List.of()));
        assertThrows(NullPointerException.class, () -> m.writeObject(null));
    }

    @Test
    void bytesGetBodyInEitherModeWithoutMovingTheReader() throws Exception {
        RamjetBytesMessage m = new RamjetBytesMessage();
        assertNull(m.getBody(byte[].class));
        m.writeInt(1);
        assertArrayEquals(new byte[] {0, 0, 0, 1}, m.getBody(byte[].class));
        m.reset();
        assertArrayEquals(new byte[] {0, 0, 0, 1}, m.getBody(byte[].class));
        assertEquals(1, m.readInt());
        assertThrows(MessageFormatException.class, () -> m.getBody(String.class));
    }

    @Test
    void bytesClearBodyMakesItWritableAndEmpty() throws Exception {
        RamjetBytesMessage m = new RamjetBytesMessage();
        m.writeInt(1);
        m.setReadOnly();
        assertThrows(MessageNotWriteableException.class, () -> m.writeInt(2));
        m.clearBody();
        m.writeByte((byte) 2);
        m.reset();
        assertEquals(1, m.getBodyLength());
    }

    // ---- MapMessage

    @Test
    void mapNamesValuesAndCopies() throws Exception {
        RamjetMapMessage m = new RamjetMapMessage();
        byte[] bytes = {1, 2, 3};
        m.setBytes("b", bytes);
        bytes[0] = 9;
        m.setBytes("part", bytes, 1, 2);
        m.setString("s", null);
        m.setInt("i", 1);
        assertArrayEquals(new byte[] {1, 2, 3}, m.getBytes("b"));
        assertArrayEquals(new byte[] {2, 3}, m.getBytes("part"));
        assertTrue(m.itemExists("s"));
        assertFalse(m.itemExists("x"));
        assertEquals(List.of("b", "part", "s", "i"), Collections.list(m.getMapNames()));
        assertNull(m.getString("s"));
        assertNull(m.getBytes("x"));
        assertThrows(NumberFormatException.class, () -> m.getInt("missing"));
        assertThrows(NullPointerException.class, () -> m.getChar("missing"));
        assertThrows(MessageFormatException.class, () -> m.setObject("o", List.of()));
        assertThrows(IllegalArgumentException.class, () -> m.setInt(null, 1));
        assertThrows(IllegalArgumentException.class, () -> m.setInt("", 1));
        assertThrows(IllegalArgumentException.class, () -> m.getInt(""));
        assertEquals(4, m.getBody(Map.class).size());
        assertTrue(m.isBodyAssignableTo(Map.class));
        assertFalse(m.isBodyAssignableTo(String.class));
    }

    @Test
    void mapReadOnlyUntilClearBody() throws Exception {
        RamjetMapMessage m = new RamjetMapMessage();
        m.setInt("a", 1);
        m.setReadOnly();
        assertThrows(MessageNotWriteableException.class, () -> m.setInt("b", 2));
        assertEquals(1, m.getInt("a"));
        m.clearBody();
        assertFalse(m.getMapNames().hasMoreElements());
        m.setInt("b", 2);
        assertNull(new RamjetMapMessage().getBody(Map.class));
    }

    // ---- StreamMessage

    @Test
    void streamWriteOnlyThenReadOnly() throws Exception {
        RamjetStreamMessage m = new RamjetStreamMessage();
        m.writeInt(1);
        assertThrows(MessageNotReadableException.class, m::readInt);
        m.reset();
        assertThrows(MessageNotWriteableException.class, () -> m.writeInt(2));
        assertEquals(1, m.readInt());
        assertThrows(MessageEOFException.class, m::readInt);
        m.clearBody();
        m.writeString("x");
        m.reset();
        assertEquals("x", m.readString());
    }

    @Test
    void streamFailedReadKeepsThePosition() throws Exception {
        RamjetStreamMessage m = new RamjetStreamMessage();
        m.writeString("abc");
        m.writeLong(5);
        m.reset();
        assertThrows(NumberFormatException.class, m::readInt);
        assertThrows(MessageFormatException.class, m::readChar);
        assertEquals("abc", m.readString());
        assertThrows(MessageFormatException.class, m::readInt);
        assertEquals(5, m.readLong());
    }

    @Test
    void streamReadBytesInPieces() throws Exception {
        RamjetStreamMessage m = new RamjetStreamMessage();
        m.writeBytes(new byte[] {1, 2, 3, 4});
        m.writeBytes(new byte[0]);
        m.writeBytes(null);
        m.writeBytes(new byte[] {5, 6, 7}, 1, 1);
        m.writeInt(9);
        m.reset();
        byte[] b = new byte[2];
        assertEquals(2, m.readBytes(b));
        assertThrows(MessageFormatException.class, m::readInt, "the field is not read to its end");
        assertEquals(2, m.readBytes(b));
        assertArrayEquals(new byte[] {3, 4}, b);
        assertEquals(-1, m.readBytes(b), "a field that ended on the buffer's end");
        assertEquals(0, m.readBytes(b), "an empty field");
        assertEquals(-1, m.readBytes(b), "a null field");
        assertEquals(1, m.readBytes(b));
        assertEquals(6, b[0]);
        assertThrows(MessageFormatException.class, () -> m.readBytes(b), "an int is not a byte[]");
        assertEquals(9, m.readInt());
        assertThrows(MessageEOFException.class, () -> m.readBytes(b));
    }

    @Test
    void streamNullsReadAsValueOfNull() throws Exception {
        RamjetStreamMessage m = new RamjetStreamMessage();
        m.writeObject(null);
        m.writeString(null);
        m.writeObject(null);
        m.reset();
        assertFalse(m.readBoolean());
        assertNull(m.readString());
        assertThrows(NumberFormatException.class, m::readInt);
        assertNull(m.readObject());
    }

    @Test
    void streamGetBodyIsRefused() {
        RamjetStreamMessage m = new RamjetStreamMessage();
        assertThrows(MessageFormatException.class, () -> m.getBody(Object.class));
        assertFalse(m.isBodyAssignableTo(Object.class));
    }

    @Test
    void streamReadObjectReturnsTheWrapperWritten() throws Exception {
        RamjetStreamMessage m = new RamjetStreamMessage();
        m.writeChar('c');
        m.writeShort((short) 1);
        m.writeBytes(new byte[] {1});
        m.reset();
        assertEquals('c', m.readObject());
        assertEquals((short) 1, m.readObject());
        assertArrayEquals(new byte[] {1}, (byte[]) m.readObject());
    }
}
