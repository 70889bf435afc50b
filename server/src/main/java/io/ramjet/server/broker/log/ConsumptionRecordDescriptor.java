package io.ramjet.server.broker.log;

import io.ramjet.server.broker.record.RecordCodec;

import io.ramjet.protocol.record.MessageRecord;
import io.ramjet.protocol.record.RecordType;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionKind;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Layout of the body of the broker's own CommitLog records; their destination is
 * {@link #DESTINATION}, their properties empty. Integers big-endian; strings and destination
 * kinds as {@link RecordCodec} writes them; a subscription key is destination, kind
 * ({@link SubscriptionKind#code()}, byte), client id, name. The first byte is the operation:
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

    /** A decoded broker record; only the fields of its operation are set (a MARK's bound is its position's offset). */
    public record Decoded(byte op, SubscriptionKey key, List<Delivery> positions, String selector, boolean noLocal,
                          long[] startOffsets, Destination destination) {
    }

    public static MessageRecord ack(SubscriptionKey key, List<Delivery> positions) {
        return record(RecordType.ACK, out -> {
            out.writeByte(ACK);
            writeKey(out, key);
            out.writeInt(positions.size());
            for (Delivery d : positions) {
                out.writeInt(d.queueId());
                out.writeLong(d.offset());
            }
        });
    }

    public static MessageRecord subscribe(SubscriptionKey key, String selector, boolean noLocal, long[] startOffsets) {
        return record(RecordType.SUBSCRIPTION, out -> {
            out.writeByte(SUBSCRIBE);
            writeKey(out, key);
            RecordCodec.writeString(out, selector);
            out.writeBoolean(noLocal);
            out.writeInt(startOffsets.length);
            for (long o : startOffsets) {
                out.writeLong(o);
            }
        });
    }

    public static MessageRecord mark(SubscriptionKey key, int queueId, long bound) {
        return record(RecordType.SUBSCRIPTION, out -> {
            out.writeByte(MARK);
            writeKey(out, key);
            out.writeInt(queueId);
            out.writeLong(bound);
        });
    }

    public static MessageRecord unsubscribe(SubscriptionKey key) {
        return record(RecordType.SUBSCRIPTION, out -> {
            out.writeByte(UNSUBSCRIBE);
            writeKey(out, key);
        });
    }

    public static MessageRecord createDestination(Destination d) {
        return record(RecordType.SUBSCRIPTION, out -> {
            out.writeByte(CREATE_DESTINATION);
            RecordCodec.writeString(out, d.name());
            RecordCodec.writeKind(out, d.kind());
            out.writeInt(d.queueCount());
        });
    }

    public static MessageRecord deleteDestination(Destination d) {
        return record(RecordType.SUBSCRIPTION, out -> {
            out.writeByte(DELETE_DESTINATION);
            RecordCodec.writeString(out, d.name());
            RecordCodec.writeKind(out, d.kind());
        });
    }

    /** Decodes a record body this class wrote. */
    public static Decoded decode(ByteBuffer body) {
        return RecordCodec.decode(body, "broker record", in -> {
            byte op = in.readByte();
            switch (op) {
                case ACK -> {
                    SubscriptionKey key = readKey(in);
                    int n = in.readInt();
                    List<Delivery> positions = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        positions.add(new Delivery(in.readInt(), in.readLong(), 0));
                    }
                    return new Decoded(op, key, positions, null, false, null, null);
                }
                case SUBSCRIBE -> {
                    SubscriptionKey key = readKey(in);
                    String selector = RecordCodec.readString(in);
                    boolean noLocal = in.readBoolean();
                    long[] starts = new long[in.readInt()];
                    for (int i = 0; i < starts.length; i++) {
                        starts[i] = in.readLong();
                    }
                    return new Decoded(op, key, List.of(), selector, noLocal, starts, null);
                }
                case MARK -> {
                    SubscriptionKey key = readKey(in);
                    int queueId = in.readInt();
                    long bound = in.readLong();
                    return new Decoded(op, key, List.of(new Delivery(queueId, bound, 0)), null, false, null, null);
                }
                case UNSUBSCRIBE -> {
                    return new Decoded(op, readKey(in), List.of(), null, false, null, null);
                }
                case CREATE_DESTINATION -> {
                    String name = RecordCodec.readString(in);
                    Destination d = new Destination(name, RecordCodec.readKind(in), in.readInt(), false);
                    return new Decoded(op, null, List.of(), null, false, null, d);
                }
                case DELETE_DESTINATION -> {
                    String name = RecordCodec.readString(in);
                    Destination d = new Destination(name, RecordCodec.readKind(in), 1, false);
                    return new Decoded(op, null, List.of(), null, false, null, d);
                }
                default -> throw new IllegalArgumentException("unknown broker record operation " + op);
            }
        });
    }

    private static MessageRecord record(RecordType type, RecordCodec.Writer writer) {
        return RecordCodec.record(type, DESTINATION, writer);
    }

    /** Writes a subscription key: destination, kind code (byte), client id, name. */
    public static void writeKey(DataOutputStream out, SubscriptionKey key) throws IOException {
        RecordCodec.writeString(out, key.destination());
        out.writeByte(key.kind().code());
        RecordCodec.writeString(out, key.clientId());
        RecordCodec.writeString(out, key.name());
    }

    public static SubscriptionKey readKey(DataInputStream in) throws IOException {
        String destination = RecordCodec.readString(in);
        int code = in.readUnsignedByte();
        SubscriptionKind kind;
        try {
            kind = SubscriptionKind.ofCode(code);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage());
        }
        return new SubscriptionKey(destination, kind, RecordCodec.readString(in), RecordCodec.readString(in));
    }
}
