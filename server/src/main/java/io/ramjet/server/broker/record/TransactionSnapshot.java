package io.ramjet.server.broker.record;

import io.ramjet.model.TxState;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Layout of the transaction section of the consumption snapshot, so that open and prepared
 * transactions, recent decisions and the committed halves retention keeps survive a checkpoint
 * without a scan of the whole log. Integers big-endian; strings and keys as {@link RecordCodec};
 * acks as in {@link TransactionRecordDescriptor}.
 *
 * <pre>
 *  transactions (int) x [ id (long) | since (long) | xid | coordinator | prepared (byte)
 *                         | halves (int) x [ offset (long) | size (int) | destination | queue id (int)
 *                                            | tag signature (long) | delivery time (long) | born (long)
 *                                            | expiration (long) ]
 *                         | acks ]
 *  decisions (int) x [ id (long) | xid | state (byte: RecordCodec code) ]
 *  committed (int) x [ COMMIT offset (long) | lowest half offset (long) ]
 *  owners (int) x [ id (long) | owner user ]
 * </pre>
 *
 * The owners come last, one per transaction whose owner user is known, so that a section
 * without them still reads (its transactions then have none).
 */
public final class TransactionSnapshot {

    private TransactionSnapshot() {
    }

    /** A transaction as the section holds it. */
    public record SavedTransaction(long id, long since, String xid, String coordinator, List<Half> halves,
                                   List<AckRecord> acks, boolean prepared, String ownerUser) {
    }

    /** A remembered decision. */
    public record SavedDecision(long transactionId, String xid, TxState state) {
    }

    /** The whole section: transactions, decisions, and COMMIT offset -> lowest half offset it made visible. */
    public record Section(List<SavedTransaction> transactions, List<SavedDecision> decisions,
                          Map<Long, Long> committedHalves) {
    }

    public static byte[] encode(Section section) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(section.transactions().size());
            for (SavedTransaction t : section.transactions()) {
                out.writeLong(t.id());
                out.writeLong(t.since());
                RecordCodec.writeString(out, t.xid());
                RecordCodec.writeString(out, t.coordinator());
                out.writeBoolean(t.prepared());
                out.writeInt(t.halves().size());
                for (Half h : t.halves()) {
                    out.writeLong(h.physicalOffset());
                    out.writeInt(h.size());
                    RecordCodec.writeString(out, h.destination());
                    out.writeInt(h.queueId());
                    out.writeLong(h.tagSignature());
                    out.writeLong(h.deliveryTime());
                    out.writeLong(h.bornTimestamp());
                    out.writeLong(h.expiration());
                }
                TransactionRecordDescriptor.writeAcks(out, t.acks());
            }
            out.writeInt(section.decisions().size());
            for (SavedDecision d : section.decisions()) {
                out.writeLong(d.transactionId());
                RecordCodec.writeString(out, d.xid());
                RecordCodec.writeState(out, d.state());
            }
            out.writeInt(section.committedHalves().size());
            for (Map.Entry<Long, Long> e : section.committedHalves().entrySet()) {
                out.writeLong(e.getKey());
                out.writeLong(e.getValue());
            }
            List<SavedTransaction> owned = section.transactions().stream().filter(t -> t.ownerUser() != null).toList();
            out.writeInt(owned.size());
            for (SavedTransaction t : owned) {
                out.writeLong(t.id());
                RecordCodec.writeString(out, t.ownerUser());
            }
        }
        return bytes.toByteArray();
    }

    /** @throws IOException if the bytes are not a section {@link #encode} wrote */
    public static Section decode(byte[] section) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(section))) {
            int nt = in.readInt();
            List<SavedTransaction> transactions = new ArrayList<>();
            for (int i = 0; i < nt; i++) {
                long id = in.readLong();
                long since = in.readLong();
                String xid = RecordCodec.readString(in);
                String coordinator = RecordCodec.readString(in);
                boolean prepared = in.readBoolean();
                int nh = in.readInt();
                List<Half> halves = new ArrayList<>();
                for (int h = 0; h < nh; h++) {
                    halves.add(new Half(in.readLong(), in.readInt(), RecordCodec.readString(in), in.readInt(),
                            in.readLong(), in.readLong(), in.readLong(), in.readLong()));
                }
                transactions.add(new SavedTransaction(id, since, xid, coordinator, halves,
                        TransactionRecordDescriptor.readAcks(in), prepared, null));
            }
            int nd = in.readInt();
            List<SavedDecision> decisions = new ArrayList<>();
            for (int i = 0; i < nd; i++) {
                decisions.add(new SavedDecision(in.readLong(), RecordCodec.readString(in), RecordCodec.readState(in)));
            }
            int nc = in.readInt();
            Map<Long, Long> committed = new HashMap<>();
            for (int i = 0; i < nc; i++) {
                committed.put(in.readLong(), in.readLong());
            }
            Map<Long, String> owners = new HashMap<>();
            int no = in.available() > 0 ? in.readInt() : 0;
            for (int i = 0; i < no; i++) {
                owners.put(in.readLong(), RecordCodec.readString(in));
            }
            return new Section(transactions.stream().map(t -> new SavedTransaction(t.id(), t.since(), t.xid(),
                    t.coordinator(), t.halves(), t.acks(), t.prepared(), owners.get(t.id()))).toList(),
                    decisions, committed);
        }
    }
}
