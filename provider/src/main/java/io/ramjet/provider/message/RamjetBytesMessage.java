package io.ramjet.provider.message;

import io.ramjet.protocol.message.BodyType;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
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
 *
 * <p>Large bodies are streamed, never held whole: a body to send may be given as an InputStream
 * ({@link PropertyNames#INPUT_STREAM}), read as the message is sent; a received large body
 * ({@link #setLargeBody}) is read from its broker as the application reads it, and can be written
 * to an OutputStream ({@link PropertyNames#SAVE_STREAM}).
 */
public class RamjetBytesMessage extends RamjetMessage implements BytesMessage {

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();

    /** Made at the first write, as {@link #out} is: a received body is never written. */
    private BodyOutput written;
    private DataOutputStream out;
    private ByteBuffer body = EMPTY;
    /** Made at the first read: most received bodies are never read as a stream. */
    private DataInputStream in;
    /** The body to send as a stream, given by the application; null when the body is written. */
    private InputStream sendStream;
    /** A received large body, read from its broker; null for a body that came with the message. */
    private LargeBodySource large;
    private long largeLength;

    /** Bytes a failed read may step back over: a primitive, or a writeUTF string. */
    private static final int MARK_LIMIT = 2 + 65535;

    @Override
    public BodyType bodyType() {
        return BodyType.BYTES;
    }

    /**
     * The whole body, in either state, without moving the read position; a received large body is
     * read whole from its broker.
     *
     * @throws IllegalStateException if a large body cannot be read or is over 2 GiB
     */
    public byte[] bodyBytes() {
        if (large != null) {
            if (largeLength > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("a body of " + largeLength + " bytes does not fit in an array;"
                        + " read it as a stream or with " + PropertyNames.SAVE_STREAM);
            }
            try {
                return large.readWhole(largeLength);
            } catch (IOException e) {
                throw new IllegalStateException("reading a large body: " + e.getMessage(), e);
            }
        }
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
        large = null;
        byte[] copy = new byte[view.remaining()];
        view.duplicate().get(copy);
        body = ByteBuffer.wrap(copy).asReadOnlyBuffer();
        written = null;
        out = null;
        setBodyReadOnly(true);
    }

    /** Sets the body of a received large message, read from {@code source} when the application reads it. */
    void setLargeBody(long length, LargeBodySource source) {
        body = EMPTY;
        large = source;
        largeLength = length;
        written = null;
        out = null;
        sendStream = null;
        setBodyReadOnly(true);
    }

    /**
     * The body to send as a stream: the application's {@link PropertyNames#INPUT_STREAM}, or a
     * received large body read again from its broker (a forwarded large message); null when the
     * body is in memory ({@link #sentBytes()}).
     */
    public InputStream sendStream() throws JMSException {
        if (sendStream != null) {
            return sendStream;
        }
        if (large != null) {
            try {
                return large.open();
            } catch (IOException e) {
                throw JmsIo.failure("reading a large body to send it", e);
            }
        }
        return null;
    }

    @Override
    void setStreamProperty(String name, Object value) throws JMSException {
        if (name.equals(PropertyNames.INPUT_STREAM)) {
            if (!(value instanceof InputStream stream)) {
                throw new MessageFormatException(name + " takes an InputStream, not " + describe(value));
            }
            checkWritable();
            if (written != null) {
                throw new MessageFormatException(name + " on a message with a written body; clearBody() first");
            }
            sendStream = stream;
            return;
        }
        if (!(value instanceof OutputStream target)) {
            throw new MessageFormatException(name + " takes an OutputStream, not " + describe(value));
        }
        checkReadable();
        try (InputStream whole = large != null ? large.open() : new BodyInput(body)) {
            whole.transferTo(target);
            target.flush();
        } catch (IOException e) {
            throw JmsIo.failure("saving the body to the stream", e);
        }
    }

    private static String describe(Object value) {
        return value == null ? "null" : value.getClass().getName();
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
        closeInput();
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
        sendStream = null;
        large = null;
    }

    @Override
    Object bodyValue() {
        byte[] bytes = bodyBytes();
        return bytes.length == 0 ? null : bytes;
    }

    @Override
    public long getBodyLength() throws JMSException {
        checkReadable();
        return large != null ? largeLength : body.remaining();
    }

    // ---- reading

    private interface Read<T> {
        T read() throws IOException;
    }

    private <T> T read(Read<T> read) throws JMSException {
        checkReadable();
        if (in == null) {
            try {
                in = new DataInputStream(large != null
                        ? new BufferedInputStream(large.open(), MARK_LIMIT) : new BodyInput(body));
            } catch (IOException e) {
                throw JmsIo.failure("reading a large body", e);
            }
        }
        in.mark(MARK_LIMIT);
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

    /** A large body's open stream asks nothing more of its broker once the body is read again from its start. */
    private void closeInput() {
        if (in != null && large != null) {
            try {
                in.close();
            } catch (IOException ignored) {
                // nothing held beyond the chunks already asked for
            }
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
        // fills the array while the body lasts, as the API says, also where a large body arrives in chunks
        return read(() -> {
            int n = in.readNBytes(value, 0, length);
            return n == 0 && length > 0 ? -1 : n;
        });
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
