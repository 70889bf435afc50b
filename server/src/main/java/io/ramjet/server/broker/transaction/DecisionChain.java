package io.ramjet.server.broker.transaction;

import io.ramjet.server.broker.record.AckRecord;
import io.ramjet.server.broker.record.Half;
import io.ramjet.server.broker.record.QueuePosition;
import io.ramjet.server.broker.record.RecordKey;
import io.ramjet.server.broker.record.TransactionRecordDescriptor;
import io.ramjet.storage.RecordChain;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a transaction's COMMIT or VOTE as the store's {@link RecordChain}: one record when it
 * fits {@code budget} bytes of body (the layout a small transaction always had), else TX_PART
 * records of at most {@code budget} bytes each holding every slot, timer and acknowledgement,
 * then the COMMIT or VOTE naming them (see {@link TransactionRecordDescriptor}). The decision is
 * the last record written, so a crash anywhere in the chain leaves either the whole decision or
 * parts that nothing names. Memory: one part's records at a time besides what the caller holds.
 */
final class DecisionChain {

    /** Room a record's header, destination and properties take besides its body; below any sane maxRecordSize. */
    static final int RECORD_OVERHEAD = 1024;

    private static final int PART_FIXED = Long.BYTES + 3 * Integer.BYTES;
    private static final int SLOT_FIXED = Integer.BYTES + Long.BYTES + Long.BYTES + Integer.BYTES + Long.BYTES;
    private static final int TIMER_FIXED = Long.BYTES + Long.BYTES + Integer.BYTES + Long.BYTES;
    private static final int POSITION = Integer.BYTES + Long.BYTES;

    private final Map<String, Integer> encodedLengths = new HashMap<>();
    private final int budget;

    /** @param maxRecordSize the store's maximum record size */
    DecisionChain(int maxRecordSize) {
        this.budget = maxRecordSize - RECORD_OVERHEAD;
        if (budget < 4096) {
            throw new IllegalArgumentException("maxRecordSize " + maxRecordSize + " leaves no room for a transaction part");
        }
    }

    /** The COMMIT of {@code visible} (at the reserved offsets, same order), timers for {@code delayed}, {@code acks}. */
    RecordChain commit(long id, String xid, List<Half> visible, List<Half> delayed, List<AckRecord> acks) {
        return (offsets, out) -> {
            long single = Long.BYTES + string(xid) + PART_FIXED + sections(visible, delayed, acks);
            if (single <= budget) {
                out.append(TransactionRecordDescriptor.commit(id, xid, visible, offsets, delayed, acks));
                return;
            }
            List<Long> parts = writeParts(id, visible, offsets, delayed, acks, out);
            out.append(TransactionRecordDescriptor.commit(id, xid, parts));
        };
    }

    /** The VOTE of a prepared transaction that consumed {@code acks}. */
    RecordChain vote(long id, String xid, String coordinator, List<AckRecord> acks, String owner) {
        return (offsets, out) -> {
            long single = Long.BYTES + string(xid) + string(coordinator) + Integer.BYTES + acks(acks) + string(owner);
            if (single <= budget) {
                out.append(TransactionRecordDescriptor.vote(id, xid, coordinator, acks, owner));
                return;
            }
            List<Long> parts = writeParts(id, List.of(), new long[0], List.of(), acks, out);
            out.append(TransactionRecordDescriptor.vote(id, xid, coordinator, List.of(), owner, parts));
        };
    }

    private List<Long> writeParts(long id, List<Half> visible, long[] offsets, List<Half> delayed,
                                  List<AckRecord> acks, RecordChain.Appender out) {
        Part part = new Part(id, visible, offsets, delayed, out);
        for (int i = 0; i < visible.size(); i++) {
            part.room(SLOT_FIXED + string(visible.get(i).destination()));
            part.slots(i);
        }
        for (int i = 0; i < delayed.size(); i++) {
            part.room(TIMER_FIXED + string(delayed.get(i).destination()));
            part.timers(i);
        }
        for (AckRecord group : acks) {
            int header = key(group.subscription()) + Integer.BYTES;
            List<QueuePosition> positions = group.positions();
            int from = 0;
            do {
                part.room(header + POSITION);
                int fit = Math.max(1, (int) Math.min(positions.size() - from, part.left(header) / POSITION));
                part.ack(new AckRecord(group.subscription(), positions.subList(from, from + fit)),
                        header + (long) fit * POSITION);
                from += fit;
            } while (from < positions.size());
        }
        part.flush();
        return part.written;
    }

    /** The TX_PART being filled: index ranges of slots and timers, pieces of ack groups. */
    private final class Part {
        private final long id;
        private final List<Half> visible;
        private final long[] offsets;
        private final List<Half> delayed;
        private final RecordChain.Appender out;
        private final List<Long> written = new ArrayList<>();
        private final List<AckRecord> acks = new ArrayList<>();
        private int slotFrom;
        private int slotTo;
        private int timerFrom;
        private int timerTo;
        private long bytes = PART_FIXED;

        Part(long id, List<Half> visible, long[] offsets, List<Half> delayed, RecordChain.Appender out) {
            this.id = id;
            this.visible = visible;
            this.offsets = offsets;
            this.delayed = delayed;
            this.out = out;
        }

        /** Writes this part first unless {@code size} more bytes fit. */
        void room(long size) {
            if (bytes + size > budget && bytes > PART_FIXED) {
                flush();
            }
        }

        long left(int header) {
            return budget - bytes - header;
        }

        void slots(int i) {
            slotTo = i + 1;
            bytes += SLOT_FIXED + string(visible.get(i).destination());
        }

        void timers(int i) {
            timerTo = i + 1;
            bytes += TIMER_FIXED + string(delayed.get(i).destination());
        }

        void ack(AckRecord piece, long size) {
            acks.add(piece);
            bytes += size;
        }

        void flush() {
            if (bytes == PART_FIXED) {
                return;
            }
            written.add(out.append(TransactionRecordDescriptor.part(id, visible.subList(slotFrom, slotTo),
                    Arrays.copyOfRange(offsets, slotFrom, slotTo), delayed.subList(timerFrom, timerTo),
                    List.copyOf(acks))));
            slotFrom = slotTo;
            timerFrom = timerTo;
            acks.clear();
            bytes = PART_FIXED;
        }
    }

    private long sections(List<Half> visible, List<Half> delayed, List<AckRecord> acks) {
        long size = 0;
        for (Half h : visible) {
            size += SLOT_FIXED + string(h.destination());
        }
        for (Half h : delayed) {
            size += TIMER_FIXED + string(h.destination());
        }
        return size + acks(acks);
    }

    private long acks(List<AckRecord> acks) {
        long size = 0;
        for (AckRecord g : acks) {
            size += key(g.subscription()) + Integer.BYTES + (long) g.positions().size() * POSITION;
        }
        return size;
    }

    private int key(RecordKey key) {
        return string(key.destination()) + 1 + string(key.clientId()) + string(key.name());
    }

    /** Bytes of a string as {@code RecordCodec} writes it. */
    private int string(String s) {
        if (s == null) {
            return Integer.BYTES;
        }
        return encodedLengths.computeIfAbsent(s, k -> Integer.BYTES + k.getBytes(StandardCharsets.UTF_8).length);
    }
}
