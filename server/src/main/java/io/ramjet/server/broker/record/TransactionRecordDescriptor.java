package io.ramjet.server.broker.record;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.RecordType;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Layout of the bodies of a transaction's decision records; their destination is
 * {@link #DESTINATION}, their properties empty. Integers big-endian; strings and subscription
 * keys as {@link RecordCodec} writes them. Half records themselves are PREPARED message records
 * whose queue-offset field holds the transaction id.
 *
 * <pre>
 *  VOTE:     transaction id (long) | xid | coordinator | acks | owner user | parts
 *  COMMIT:   transaction id (long) | xid | sections | parts
 *  TX_PART:  transaction id (long) | sections
 *  ROLLBACK: transaction id (long) | xid
 *  sections: slots (int) x [ destination | queue id (int) | queue offset (long)
 *                            | half offset (long) | half size (int) | tag signature (long) ]
 *            | timers (int) x [ half offset (long) | delivery time (long) | destination
 *                               | queue id (int) | born (long) ]
 *            | acks
 *  acks:     groups (int) x [ subscription key | positions (int) x [ queue id (int) | queue offset (long) ] ]
 *  parts:    count (int) x [ CommitLog offset of a TX_PART (long) ]
 * </pre>
 *
 * A VOTE's owner user is the user that prepared the transaction ({@code ""}: anonymous); a VOTE
 * that ends after its acks names none (decoded as null). A VOTE or COMMIT that ends before its
 * parts names none.
 *
 * <p>A decision too large for one record is a chain (see {@code RecordChain}): TX_PART records
 * holding its sections, appended back to back, then the VOTE or COMMIT naming them, which holds
 * no section of its own. The decision is the last record: its dispatch reads the parts back and
 * applies them with its own sections, all at once; parts that no decision names are never
 * applied.
 *
 * A COMMIT's queue offsets were reserved by the store under its append lock: the dispatch of
 * the record puts one ConsumeQueue entry per slot, pointing at the half record, and applies the
 * acknowledgements, so visibility and consumption change together; replaying it changes nothing
 * more. Delayed halves become timers instead of slots; expired ones are in neither.
 */
public final class TransactionRecordDescriptor {

    /** The destination field of every decision record; not a destination a client can name. */
    public static final String DESTINATION = "$ramjet.transaction";

    private TransactionRecordDescriptor() {
    }

    /** A slot of a COMMIT: the half at {@code half} enters its queue at {@code queueOffset}. */
    public record Slot(Half half, long queueOffset) {
    }

    /** A decoded VOTE; {@code parts} hold more of its acks. */
    public record Vote(long transactionId, String xid, String coordinator, List<AckRecord> acks, String owner,
                       List<Long> parts) {
    }

    /** A decoded COMMIT; {@code parts} hold more of its sections. */
    public record Commit(long transactionId, String xid, Sections sections, List<Long> parts) {
    }

    /** A decoded TX_PART. */
    public record Part(long transactionId, Sections sections) {
    }

    /** What a COMMIT or TX_PART makes visible, hands to the timer store and acknowledges. */
    public record Sections(List<Slot> slots, List<Half> timers, List<AckRecord> acks) {
    }

    /** A decoded ROLLBACK. */
    public record Rollback(long transactionId, String xid) {
    }

    public static MessageRecord vote(long transactionId, String xid, String coordinator, List<AckRecord> acks,
                                     String owner) {
        return vote(transactionId, xid, coordinator, acks, owner, List.of());
    }

    /** A VOTE whose acks continue in the TX_PART records at {@code parts}. */
    public static MessageRecord vote(long transactionId, String xid, String coordinator, List<AckRecord> acks,
                                     String owner, List<Long> parts) {
        return record(RecordType.VOTE, out -> {
            out.writeLong(transactionId);
            RecordCodec.writeString(out, xid);
            RecordCodec.writeString(out, coordinator);
            writeAcks(out, acks);
            RecordCodec.writeString(out, owner);
            writeParts(out, parts);
        });
    }

    /** A COMMIT making {@code visible} visible at {@code queueOffsets} (same order), timers for {@code delayed}. */
    public static MessageRecord commit(long transactionId, String xid, List<Half> visible, long[] queueOffsets,
                                       List<Half> delayed, List<AckRecord> acks) {
        return record(RecordType.COMMIT, out -> {
            out.writeLong(transactionId);
            RecordCodec.writeString(out, xid);
            writeSections(out, visible, queueOffsets, delayed, acks);
        });
    }

    /** The COMMIT of a chain: its sections are in the TX_PART records at {@code parts}. */
    public static MessageRecord commit(long transactionId, String xid, List<Long> parts) {
        return record(RecordType.COMMIT, out -> {
            out.writeLong(transactionId);
            RecordCodec.writeString(out, xid);
            writeSections(out, List.of(), new long[0], List.of(), List.of());
            writeParts(out, parts);
        });
    }

    /** A TX_PART of a chain, sections as in {@link #commit(long, String, List, long[], List, List)}. */
    public static MessageRecord part(long transactionId, List<Half> visible, long[] queueOffsets, List<Half> delayed,
                                     List<AckRecord> acks) {
        return record(RecordType.TX_PART, out -> {
            out.writeLong(transactionId);
            writeSections(out, visible, queueOffsets, delayed, acks);
        });
    }

    private static void writeSections(DataOutputStream out, List<Half> visible, long[] queueOffsets,
                                      List<Half> delayed, List<AckRecord> acks) throws IOException {
        out.writeInt(visible.size());
        for (int i = 0; i < visible.size(); i++) {
            Half h = visible.get(i);
            RecordCodec.writeString(out, h.destination());
            out.writeInt(h.queueId());
            out.writeLong(queueOffsets[i]);
            out.writeLong(h.physicalOffset());
            out.writeInt(h.size());
            out.writeLong(h.tagSignature());
        }
        out.writeInt(delayed.size());
        for (Half h : delayed) {
            out.writeLong(h.physicalOffset());
            out.writeLong(h.deliveryTime());
            RecordCodec.writeString(out, h.destination());
            out.writeInt(h.queueId());
            out.writeLong(h.bornTimestamp());
        }
        writeAcks(out, acks);
    }

    /** Writes nothing for no parts: a decision that fits one record keeps the layout it always had. */
    private static void writeParts(DataOutputStream out, List<Long> parts) throws IOException {
        if (parts.isEmpty()) {
            return;
        }
        out.writeInt(parts.size());
        for (long p : parts) {
            out.writeLong(p);
        }
    }

    private static List<Long> readParts(DataInputStream in) throws IOException {
        if (in.available() == 0) {
            return List.of();
        }
        int n = in.readInt();
        List<Long> parts = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            parts.add(in.readLong());
        }
        return List.copyOf(parts);
    }

    public static MessageRecord rollback(long transactionId, String xid) {
        return record(RecordType.ROLLBACK, out -> {
            out.writeLong(transactionId);
            RecordCodec.writeString(out, xid);
        });
    }

    public static Vote decodeVote(ByteBuffer body) {
        return decode(body, in -> new Vote(in.readLong(), RecordCodec.readString(in), RecordCodec.readString(in),
                readAcks(in), in.available() > 0 ? RecordCodec.readString(in) : null, readParts(in)));
    }

    public static Commit decodeCommit(ByteBuffer body) {
        return decode(body, in -> new Commit(in.readLong(), RecordCodec.readString(in), readSections(in),
                readParts(in)));
    }

    public static Part decodePart(ByteBuffer body) {
        return decode(body, in -> new Part(in.readLong(), readSections(in)));
    }

    private static Sections readSections(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<Slot> slots = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String destination = RecordCodec.readString(in);
            int queueId = in.readInt();
            long queueOffset = in.readLong();
            long physical = in.readLong();
            int size = in.readInt();
            long tag = in.readLong();
            slots.add(new Slot(new Half(physical, size, destination, queueId, tag, 0, 0, 0), queueOffset));
        }
        int nt = in.readInt();
        List<Half> timers = new ArrayList<>(nt);
        for (int i = 0; i < nt; i++) {
            long physical = in.readLong();
            long deliveryTime = in.readLong();
            String destination = RecordCodec.readString(in);
            int queueId = in.readInt();
            long born = in.readLong();
            timers.add(new Half(physical, 0, destination, queueId, 0, deliveryTime, born, 0));
        }
        return new Sections(slots, timers, readAcks(in));
    }

    public static Rollback decodeRollback(ByteBuffer body) {
        return decode(body, in -> new Rollback(in.readLong(), RecordCodec.readString(in)));
    }

    static void writeAcks(DataOutputStream out, List<AckRecord> acks) throws IOException {
        out.writeInt(acks.size());
        for (AckRecord g : acks) {
            RecordCodec.writeKey(out, g.subscription());
            ConsumptionRecordDescriptor.writePositions(out, g.positions());
        }
    }

    static List<AckRecord> readAcks(DataInputStream in) throws IOException {
        int groups = in.readInt();
        List<AckRecord> acks = new ArrayList<>(Math.min(groups, 1024));
        for (int i = 0; i < groups; i++) {
            RecordKey key = RecordCodec.readKey(in);
            acks.add(new AckRecord(key, ConsumptionRecordDescriptor.readPositions(in)));
        }
        return acks;
    }

    private static MessageRecord record(RecordType type, RecordCodec.Writer writer) {
        return RecordCodec.record(type, DESTINATION, writer);
    }

    private static <T> T decode(ByteBuffer body, RecordCodec.Reader<T> reader) {
        return RecordCodec.decode(body, "transaction record", reader);
    }
}
