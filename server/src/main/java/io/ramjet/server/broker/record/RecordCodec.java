package io.ramjet.server.broker.record;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.TxState;
import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The primitive fields of the broker's own records and snapshot (consumption records, snapshot,
 * transaction records and snapshot section): a string is an int byte count (-1 for null) then
 * UTF-8 bytes; an enum is one byte holding its explicit code below, never its ordinal, so that
 * reordering an enum cannot change what a data directory means. Also the envelope of every
 * broker record: a record of the broker's own type, on a destination of the broker's own, with
 * empty properties and the fields in its body. This package imports no other broker package.
 *
 * <pre>
 *  subscription key:  destination | kind code (byte) | client id | name
 *  destination kind:  QUEUE 0 | TOPIC 1
 *  transaction state: OPEN 0 | COMMITTED 1 | ROLLED_BACK 2 | UNKNOWN 3
 * </pre>
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

    public static void writeKey(DataOutputStream out, RecordKey key) throws IOException {
        writeString(out, key.destination());
        out.writeByte(key.kind());
        writeString(out, key.clientId());
        writeString(out, key.name());
    }

    public static RecordKey readKey(DataInputStream in) throws IOException {
        return new RecordKey(readString(in), in.readUnsignedByte(), readString(in), readString(in));
    }

    public static void writeKind(DataOutputStream out, DestinationKind kind) throws IOException {
        out.writeByte(switch (kind) {
            case QUEUE -> 0;
            case TOPIC -> 1;
        });
    }

    public static DestinationKind readKind(DataInputStream in) throws IOException {
        int code = in.readUnsignedByte();
        return switch (code) {
            case 0 -> DestinationKind.QUEUE;
            case 1 -> DestinationKind.TOPIC;
            default -> throw new IOException("unknown destination kind code " + code);
        };
    }

    public static void writeState(DataOutputStream out, TxState state) throws IOException {
        out.writeByte(switch (state) {
            case OPEN -> 0;
            case COMMITTED -> 1;
            case ROLLED_BACK -> 2;
            case UNKNOWN -> 3;
        });
    }

    public static TxState readState(DataInputStream in) throws IOException {
        int code = in.readUnsignedByte();
        return switch (code) {
            case 0 -> TxState.OPEN;
            case 1 -> TxState.COMMITTED;
            case 2 -> TxState.ROLLED_BACK;
            case 3 -> TxState.UNKNOWN;
            default -> throw new IOException("unknown transaction state code " + code);
        };
    }
}
