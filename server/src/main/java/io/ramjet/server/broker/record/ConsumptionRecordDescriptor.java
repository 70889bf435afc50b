package io.ramjet.server.broker.record;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.RecordType;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Layout of the body of the broker's own consumption records; their destination is
 * {@link #DESTINATION}, their properties empty. Integers big-endian; strings, kinds and keys as
 * {@link RecordCodec} writes them. The first byte is the operation:
 *
 * <pre>
 *  ACK record:
 *    op ACK (1) | subscription key | count (int) | count x [queue id (int), queue offset (long)]
 *  SUBSCRIPTION records:
 *    op SUBSCRIBE (2)          | key | selector | noLocal (byte) | queues (int) | queues x start offset (long)
 *    op UNSUBSCRIBE (3)        | key
 *    op CREATE_DESTINATION (4) | name | kind (byte) | queue count (int)
 *    op DELETE_DESTINATION (5) | name | kind (byte)
 *    op MARK (6)               | key | queue id (int) | delivery bound (long)   (see DeliveryMarks)
 * </pre>
 *
 * A SUBSCRIBE replaces a subscription of the same key that has other terms, as a consumer
 * asking with other terms does; replaying any of these twice leaves the same state.
 */
public final class ConsumptionRecordDescriptor {

    /** The destination field of every broker record; not a destination a client can name. */
    public static final String DESTINATION = "$ramjet.consumption";

    public static final byte ACK = 1;
    public static final byte SUBSCRIBE = 2;
    public static final byte UNSUBSCRIBE = 3;
    public static final byte CREATE_DESTINATION = 4;
    public static final byte DELETE_DESTINATION = 5;
    public static final byte MARK = 6;

    private ConsumptionRecordDescriptor() {
    }

    /**
     * A decoded broker record; only the fields of its operation are set (a MARK's bound is its
     * position's offset; a DELETE_DESTINATION's queue count is 1).
     */
    public record Decoded(byte op, RecordKey key, List<QueuePosition> positions, String selector, boolean noLocal,
                          long[] startOffsets, String destination, DestinationKind kind, int queueCount) {
    }

    public static MessageRecord ack(RecordKey key, List<QueuePosition> positions) {
        return record(RecordType.ACK, out -> {
            out.writeByte(ACK);
            RecordCodec.writeKey(out, key);
            writePositions(out, positions);
        });
    }

    public static MessageRecord subscribe(RecordKey key, String selector, boolean noLocal, long[] startOffsets) {
        return record(RecordType.SUBSCRIPTION, out -> {
            out.writeByte(SUBSCRIBE);
            RecordCodec.writeKey(out, key);
            RecordCodec.writeString(out, selector);
            out.writeBoolean(noLocal);
            out.writeInt(startOffsets.length);
            for (long o : startOffsets) {
                out.writeLong(o);
            }
        });
    }

    public static MessageRecord mark(RecordKey key, int queueId, long bound) {
        return record(RecordType.SUBSCRIPTION, out -> {
            out.writeByte(MARK);
            RecordCodec.writeKey(out, key);
            out.writeInt(queueId);
            out.writeLong(bound);
        });
    }

    public static MessageRecord unsubscribe(RecordKey key) {
        return record(RecordType.SUBSCRIPTION, out -> {
            out.writeByte(UNSUBSCRIBE);
            RecordCodec.writeKey(out, key);
        });
    }

    public static MessageRecord createDestination(String name, DestinationKind kind, int queueCount) {
        return record(RecordType.SUBSCRIPTION, out -> {
            out.writeByte(CREATE_DESTINATION);
            RecordCodec.writeString(out, name);
            RecordCodec.writeKind(out, kind);
            out.writeInt(queueCount);
        });
    }

    public static MessageRecord deleteDestination(String name, DestinationKind kind) {
        return record(RecordType.SUBSCRIPTION, out -> {
            out.writeByte(DELETE_DESTINATION);
            RecordCodec.writeString(out, name);
            RecordCodec.writeKind(out, kind);
        });
    }

    /** Decodes a record body this class wrote. */
    public static Decoded decode(ByteBuffer body) {
        return RecordCodec.decode(body, "broker record", in -> {
            byte op = in.readByte();
            switch (op) {
                case ACK -> {
                    RecordKey key = RecordCodec.readKey(in);
                    return new Decoded(op, key, readPositions(in), null, false, null, null, null, 0);
                }
                case SUBSCRIBE -> {
                    RecordKey key = RecordCodec.readKey(in);
                    String selector = RecordCodec.readString(in);
                    boolean noLocal = in.readBoolean();
                    long[] starts = new long[in.readInt()];
                    for (int i = 0; i < starts.length; i++) {
                        starts[i] = in.readLong();
                    }
                    return new Decoded(op, key, List.of(), selector, noLocal, starts, null, null, 0);
                }
                case MARK -> {
                    RecordKey key = RecordCodec.readKey(in);
                    QueuePosition bound = new QueuePosition(in.readInt(), in.readLong());
                    return new Decoded(op, key, List.of(bound), null, false, null, null, null, 0);
                }
                case UNSUBSCRIBE -> {
                    return new Decoded(op, RecordCodec.readKey(in), List.of(), null, false, null, null, null, 0);
                }
                case CREATE_DESTINATION -> {
                    String name = RecordCodec.readString(in);
                    DestinationKind kind = RecordCodec.readKind(in);
                    return new Decoded(op, null, List.of(), null, false, null, name, kind, in.readInt());
                }
                case DELETE_DESTINATION -> {
                    String name = RecordCodec.readString(in);
                    return new Decoded(op, null, List.of(), null, false, null, name, RecordCodec.readKind(in), 1);
                }
                default -> throw new IllegalArgumentException("unknown broker record operation " + op);
            }
        });
    }

    /** Reads the positions {@link #writePositions} wrote. */
    static List<QueuePosition> readPositions(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<QueuePosition> positions = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            positions.add(new QueuePosition(in.readInt(), in.readLong()));
        }
        return positions;
    }

    private static MessageRecord record(RecordType type, RecordCodec.Writer writer) {
        return RecordCodec.record(type, DESTINATION, writer);
    }

    /** Writes the positions of a subscription as ACK and transaction records do: count, then each. */
    static void writePositions(DataOutputStream out, List<QueuePosition> positions) throws IOException {
        out.writeInt(positions.size());
        for (QueuePosition p : positions) {
            out.writeInt(p.queueId());
            out.writeLong(p.offset());
        }
    }
}
