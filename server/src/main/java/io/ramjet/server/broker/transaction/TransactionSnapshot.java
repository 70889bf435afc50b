package io.ramjet.server.broker.transaction;

import io.ramjet.server.broker.record.RecordCodec;

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
 * </pre>
 */
public final class TransactionSnapshot {

    private TransactionSnapshot() {
    }

    /** The table's state, as the snapshot section's bytes. */
    public static byte[] encode(TransactionTable table) throws IOException {
        TransactionTable.Saved saved = table.save();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(saved.transactions().size());
            for (Transaction.Saved t : saved.transactions()) {
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
            out.writeInt(saved.decisions().size());
            for (DecisionMemory.Decision d : saved.decisions()) {
                out.writeLong(d.transactionId());
                RecordCodec.writeString(out, d.xid());
                RecordCodec.writeState(out, d.state());
            }
            out.writeInt(saved.committedHalves().size());
            for (Map.Entry<Long, Long> e : saved.committedHalves().entrySet()) {
                out.writeLong(e.getKey());
                out.writeLong(e.getValue());
            }
        }
        return bytes.toByteArray();
    }

    /** Restores a section {@link #encode} wrote into an empty table. */
    public static void restore(TransactionTable table, byte[] section) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(section))) {
            int nt = in.readInt();
            List<Transaction.Saved> transactions = new ArrayList<>();
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
                transactions.add(new Transaction.Saved(id, since, xid, coordinator, halves,
                        TransactionRecordDescriptor.readAcks(in), prepared));
            }
            int nd = in.readInt();
            List<DecisionMemory.Decision> decisions = new ArrayList<>();
            for (int i = 0; i < nd; i++) {
                decisions.add(new DecisionMemory.Decision(in.readLong(), RecordCodec.readString(in),
                        RecordCodec.readState(in)));
            }
            int nc = in.readInt();
            Map<Long, Long> committed = new HashMap<>();
            for (int i = 0; i < nc; i++) {
                committed.put(in.readLong(), in.readLong());
            }
            table.restore(new TransactionTable.Saved(transactions, decisions, committed));
        }
    }
}
