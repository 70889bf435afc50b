package io.ramjet.provider.message;

import io.ramjet.protocol.message.BodyType;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.StreamMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * A sequence of typed values read back in order through the map and stream conversion table.
 * A read that fails with MessageFormatException or NumberFormatException leaves the position
 * where it was. A byte[] field is read by successive readBytes calls, the last returning less
 * than the buffer (or -1 if the previous call ended exactly at the field's end).
 */
public class RamjetStreamMessage extends RamjetMessage implements StreamMessage {

    private final List<Object> values = new ArrayList<>();
    private int position;
    /** Bytes of the current byte[] field already read, or -1 when no readBytes is in progress. */
    private int bytesRead = -1;

    @Override
    public BodyType bodyType() {
        return BodyType.STREAM;
    }

    /** The live values, for the encoder. */
    List<Object> values() {
        return values;
    }

    @Override
    void onBodyReadOnly() {
        position = 0;
        bytesRead = -1;
    }

    @Override
    public void reset() throws JMSException {
        setBodyReadOnly(true);
        onBodyReadOnly();
    }

    @Override
    public void clearBody() throws JMSException {
        super.clearBody();
        values.clear();
        onBodyReadOnly();
    }

    @Override
    public <T> T getBody(Class<T> c) throws JMSException {
        throw new MessageFormatException("a StreamMessage body cannot be returned by getBody");
    }

    @Override
    @SuppressWarnings("rawtypes")
    public boolean isBodyAssignableTo(Class c) {
        return false;
    }

    private interface Conversion<T> {
        T convert(Object value) throws JMSException;
    }

    private <T> T read(Conversion<T> conversion) throws JMSException {
        checkReadable();
        if (bytesRead >= 0) {
            throw new MessageFormatException("the byte[] field is not read to its end yet");
        }
        if (position >= values.size()) {
            throw new MessageEOFException("end of the stream body");
        }
        T result = conversion.convert(values.get(position));
        position++;
        return result;
    }

    @Override public boolean readBoolean() throws JMSException { return read(ValueConversions::toBoolean); }
    @Override public byte readByte() throws JMSException { return read(ValueConversions::toByte); }
    @Override public short readShort() throws JMSException { return read(ValueConversions::toShort); }
    @Override public char readChar() throws JMSException { return read(ValueConversions::toChar); }
    @Override public int readInt() throws JMSException { return read(ValueConversions::toInt); }
    @Override public long readLong() throws JMSException { return read(ValueConversions::toLong); }
    @Override public float readFloat() throws JMSException { return read(ValueConversions::toFloat); }
    @Override public double readDouble() throws JMSException { return read(ValueConversions::toDouble); }
    @Override public String readString() throws JMSException { return read(ValueConversions::toString); }

    @Override
    public Object readObject() throws JMSException {
        return read(v -> v instanceof byte[] b ? b.clone() : v);
    }

    @Override
    public int readBytes(byte[] value) throws JMSException {
        checkReadable();
        if (bytesRead < 0) {
            if (position >= values.size()) {
                throw new MessageEOFException("end of the stream body");
            }
            Object v = values.get(position);
            if (v == null) {
                position++;
                return -1;
            }
            if (!(v instanceof byte[])) {
                throw ValueConversions.refused(v, "byte[]");
            }
            bytesRead = 0;
        }
        byte[] field = (byte[]) values.get(position);
        int n = Math.min(value.length, field.length - bytesRead);
        if (n == 0 && field.length > 0 && value.length > 0) {
            endBytes();
            return -1;
        }
        System.arraycopy(field, bytesRead, value, 0, n);
        bytesRead += n;
        if (n < value.length) {
            endBytes();
        }
        return n;
    }

    private void endBytes() {
        bytesRead = -1;
        position++;
    }

    private void write(Object v) throws JMSException {
        checkWritable();
        values.add(v);
    }

    @Override public void writeBoolean(boolean v) throws JMSException { write(v); }
    @Override public void writeByte(byte v) throws JMSException { write(v); }
    @Override public void writeShort(short v) throws JMSException { write(v); }
    @Override public void writeChar(char v) throws JMSException { write(v); }
    @Override public void writeInt(int v) throws JMSException { write(v); }
    @Override public void writeLong(long v) throws JMSException { write(v); }
    @Override public void writeFloat(float v) throws JMSException { write(v); }
    @Override public void writeDouble(double v) throws JMSException { write(v); }
    @Override public void writeString(String v) throws JMSException { write(v); }
    @Override public void writeBytes(byte[] v) throws JMSException { write(v == null ? null : v.clone()); }

    @Override
    public void writeBytes(byte[] v, int offset, int length) throws JMSException {
        write(java.util.Arrays.copyOfRange(v, offset, offset + length));
    }

    @Override
    public void writeObject(Object v) throws JMSException {
        if (!StreamValues.isValue(v)) {
            throw new MessageFormatException("a stream cannot hold a " + v.getClass().getName()
                    + ": only primitive wrappers, String and byte[]");
        }
        write(v instanceof byte[] b ? b.clone() : v);
    }
}
