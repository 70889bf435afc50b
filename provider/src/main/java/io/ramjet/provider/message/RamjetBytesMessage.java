package io.ramjet.provider.message;

import io.ramjet.protocol.message.BodyType;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UTFDataFormatException;
import java.nio.ByteBuffer;

/**
 * A stream of uninterpreted bytes, written and read with {@link DataOutputStream} and
 * {@link DataInputStream} semantics (big-endian, writeUTF's modified UTF-8). Write-only until
 * {@link #reset()} or receipt, then read-only until {@link #clearBody()}. A received body is a
 * copy of its bytes (a view would keep a whole pull's answer alive while the application holds
 * one of its messages), a sent one is handed to the send without a copy ({@link BodyOutput}):
 * neither is ever changed in place.
 */
public class RamjetBytesMessage extends RamjetMessage implements BytesMessage {

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();

    /** Made at the first write, as {@link #out} is: a received body is never written. */
    private BodyOutput written;
    private DataOutputStream out;
    private ByteBuffer body = EMPTY;
    /** Made at the first read: most received bodies are never read as a stream. */
    private DataInputStream in;

    @Override
    public BodyType bodyType() {
        return BodyType.BYTES;
    }

    /** The whole body, in either state, without moving the read position. */
    public byte[] bodyBytes() {
        if (!isBodyReadOnly()) {
            return written == null ? new byte[0] : written.toByteArray();
        }
        byte[] copy = new byte[body.remaining()];
        body.duplicate().get(copy);
        return copy;
    }

    /**
     * The whole body for a send, not copied when it can be shared: the caller must not change
     * it, and the message never will ({@link BodyOutput}).
     */
    byte[] sentBytes() {
        if (!isBodyReadOnly()) {
            return written == null ? new byte[0] : written.bytes();
        }
        if (body.hasArray() && !body.isReadOnly() && body.arrayOffset() == 0 && body.position() == 0
                && body.remaining() == body.array().length) {
            return body.array();
        }
        return bodyBytes();
    }

    /**
     * Sets the body of a received message, readable once the message is made read-only
     * ({@link #onBodyReadOnly}): a copy of {@code view} from its position to its limit.
     */
    void setBody(ByteBuffer view) {
        byte[] copy = new byte[view.remaining()];
        view.duplicate().get(copy);
        body = ByteBuffer.wrap(copy).asReadOnlyBuffer();
        written = null;
        out = null;
        setBodyReadOnly(true);
    }

    @Override
    void onBodyReadOnly() {
        if (written != null) {
            body = ByteBuffer.wrap(written.bytes());
            written = null;
            out = null;
        }
        in = null;
    }

    @Override
    public void reset() throws JMSException {
        setBodyReadOnly(true);
        onBodyReadOnly();
    }

    @Override
    public void clearBody() throws JMSException {
        super.clearBody();
        written = null;
        out = null;
        body = EMPTY;
        in = null;
    }

    @Override
    Object bodyValue() {
        byte[] bytes = bodyBytes();
        return bytes.length == 0 ? null : bytes;
    }

    @Override
    public long getBodyLength() throws JMSException {
        checkReadable();
        return body.remaining();
    }

    // ---- reading

    private interface Read<T> {
        T read() throws IOException;
    }

    private <T> T read(Read<T> read) throws JMSException {
        checkReadable();
        if (in == null) {
            in = new DataInputStream(new BodyInput(body));
        }
        in.mark(0);
        try {
            return read.read();
        } catch (EOFException e) {
            resetToMark();
            throw new MessageEOFException("unexpected end of the bytes body");
        } catch (UTFDataFormatException e) {
            resetToMark();
            throw new MessageFormatException("not a UTF string: " + e.getMessage());
        } catch (IOException e) {
            throw new JMSException("reading a bytes body: " + e);
        }
    }

    private void resetToMark() {
        try {
            in.reset();
        } catch (IOException impossible) {
            throw new AssertionError(impossible);
        }
    }

    @Override public boolean readBoolean() throws JMSException { return read(() -> in.readBoolean()); }
    @Override public byte readByte() throws JMSException { return read(() -> in.readByte()); }
    @Override public int readUnsignedByte() throws JMSException { return read(() -> in.readUnsignedByte()); }
    @Override public short readShort() throws JMSException { return read(() -> in.readShort()); }
    @Override public int readUnsignedShort() throws JMSException { return read(() -> in.readUnsignedShort()); }
    @Override public char readChar() throws JMSException { return read(() -> in.readChar()); }
    @Override public int readInt() throws JMSException { return read(() -> in.readInt()); }
    @Override public long readLong() throws JMSException { return read(() -> in.readLong()); }
    @Override public float readFloat() throws JMSException { return read(() -> in.readFloat()); }
    @Override public double readDouble() throws JMSException { return read(() -> in.readDouble()); }
    @Override public String readUTF() throws JMSException { return read(() -> in.readUTF()); }

    @Override
    public int readBytes(byte[] value) throws JMSException {
        return readBytes(value, value.length);
    }

    @Override
    public int readBytes(byte[] value, int length) throws JMSException {
        if (length < 0 || length > value.length) {
            throw new IndexOutOfBoundsException("length " + length + " for a buffer of " + value.length);
        }
        return read(() -> in.read(value, 0, length));
    }

    // ---- writing

    private interface Write {
        void write() throws IOException;
    }

    private void write(Write write) throws JMSException {
        checkWritable();
        if (out == null) {
            written = new BodyOutput();
            out = new DataOutputStream(written);
        }
        try {
            write.write();
        } catch (UTFDataFormatException e) {
            throw new MessageFormatException("string too long for writeUTF: " + e.getMessage());
        } catch (IOException e) {
            throw new JMSException("writing a bytes body: " + e);
        }
    }

    @Override public void writeBoolean(boolean v) throws JMSException { write(() -> out.writeBoolean(v)); }
    @Override public void writeByte(byte v) throws JMSException { write(() -> out.writeByte(v)); }
    @Override public void writeShort(short v) throws JMSException { write(() -> out.writeShort(v)); }
    @Override public void writeChar(char v) throws JMSException { write(() -> out.writeChar(v)); }
    @Override public void writeInt(int v) throws JMSException { write(() -> out.writeInt(v)); }
    @Override public void writeLong(long v) throws JMSException { write(() -> out.writeLong(v)); }
    @Override public void writeFloat(float v) throws JMSException { write(() -> out.writeFloat(v)); }
    @Override public void writeDouble(double v) throws JMSException { write(() -> out.writeDouble(v)); }

    @Override
    public void writeUTF(String v) throws JMSException {
        if (v == null) {
            throw new NullPointerException("writeUTF(null)");
        }
        write(() -> out.writeUTF(v));
    }

    @Override public void writeBytes(byte[] v) throws JMSException { write(() -> out.write(v)); }
    @Override public void writeBytes(byte[] v, int offset, int length) throws JMSException { write(() -> out.write(v, offset, length)); }

    @Override
    public void writeObject(Object v) throws JMSException {
        if (v == null) {
            throw new NullPointerException("writeObject(null)");
        }
        if (v instanceof Boolean b) {
            writeBoolean(b);
        } else if (v instanceof Byte b) {
            writeByte(b);
        } else if (v instanceof Short s) {
            writeShort(s);
        } else if (v instanceof Character c) {
            writeChar(c);
        } else if (v instanceof Integer i) {
            writeInt(i);
        } else if (v instanceof Long l) {
            writeLong(l);
        } else if (v instanceof Float f) {
            writeFloat(f);
        } else if (v instanceof Double d) {
            writeDouble(d);
        } else if (v instanceof String s) {
            writeUTF(s);
        } else if (v instanceof byte[] bytes) {
            writeBytes(bytes);
        } else {
            throw new MessageFormatException("writeObject takes primitive wrappers, String and byte[], not "
                    + v.getClass().getName());
        }
    }
}
