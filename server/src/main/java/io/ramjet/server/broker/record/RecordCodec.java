package io.ramjet.server.broker.record;

import io.ramjet.protocol.command.DestinationKind;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionKind;

import io.ramjet.protocol.record.MessageRecord;
import io.ramjet.protocol.record.RecordFlags;
import io.ramjet.protocol.record.RecordType;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The primitive fields shared by {@link ConsumptionRecordDescriptor}, {@link SnapshotDescriptor}
 * and the transaction records: a string is an int byte count (-1 for null) then UTF-8 bytes; a
 * subscription key is destination, kind ordinal (byte), client id, name. Also the envelope of
 * every broker record: a record of the broker's own type, on a destination of the broker's own,
 * with empty properties and the fields in its body.
 */
public final class RecordCodec {

    /** Writes a broker record's body. */
    public interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    /** Reads a broker record's body. */
    public interface Reader<T> {
        T read(DataInputStream in) throws IOException;
    }

    private RecordCodec() {
    }

    /** A broker record of {@code type} on {@code destination} with the body {@code writer} writes. */
    public static MessageRecord record(RecordType type, String destination, Writer writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new MessageRecord(RecordFlags.of(type), destination, 0, -1, System.currentTimeMillis(), 0, 0,
                new byte[0], bytes.toByteArray());
    }

    /**
     * Reads a broker record's body, leaving {@code body}'s position alone.
     *
     * @throws IllegalArgumentException naming {@code what} if the body does not decode
     */
    public static <T> T decode(ByteBuffer body, String what, Reader<T> reader) {
        byte[] bytes = new byte[body.remaining()];
        body.duplicate().get(bytes);
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            return reader.read(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("undecodable " + what, e);
        }
    }

    public static void writeString(DataOutputStream out, String s) throws IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    public static String readString(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            return null;
        }
        if (length > in.available()) {
            throw new IOException("string of " + length + " bytes past the end");
        }
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    public static void writeKey(DataOutputStream out, SubscriptionKey key) throws IOException {
        writeString(out, key.destination());
        out.writeByte(key.kind().ordinal());
        writeString(out, key.clientId());
        writeString(out, key.name());
    }

    public static SubscriptionKey readKey(DataInputStream in) throws IOException {
        String destination = readString(in);
        SubscriptionKind kind = SubscriptionKind.values()[in.readUnsignedByte()];
        return new SubscriptionKey(destination, kind, readString(in), readString(in));
    }

    public static void writeKind(DataOutputStream out, DestinationKind kind) throws IOException {
        out.writeByte(kind.ordinal());
    }

    public static DestinationKind readKind(DataInputStream in) throws IOException {
        return DestinationKind.values()[in.readUnsignedByte()];
    }
}
