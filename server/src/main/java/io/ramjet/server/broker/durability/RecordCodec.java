package io.ramjet.server.broker.durability;

import io.ramjet.protocol.command.DestinationKind;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionKind;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The primitive fields shared by {@link ConsumptionRecordDescriptor}, {@link SnapshotDescriptor}
 * and the transaction records: a string is an int byte count (-1 for null) then UTF-8 bytes; a
 * subscription key is destination, kind ordinal (byte), client id, name.
 */
public final class RecordCodec {

    private RecordCodec() {
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
