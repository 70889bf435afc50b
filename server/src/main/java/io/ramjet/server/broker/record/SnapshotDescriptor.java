package io.ramjet.server.broker.record;

import io.ramjet.model.DestinationKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Layout of the consumption snapshot file: the broker's destinations, durable subscriptions and
 * pending timers as of a CommitLog position. Integers big-endian; strings and keys as {@link RecordCodec}.
 *
 * <pre>
 *  magic (int) | version (int) | position (long)
 *  destinations (int) x [ name | kind (byte) | queue count (int) ]
 *  subscriptions (int) x [ key | selector | noLocal (byte) | queues (int) x
 *                          [ low water (long) | read offset (long) | delivery bound (long)
 *                            | pending runs (int) x [ first offset (long) | offsets (int) | deliveries (int) ] ] ]
 *  timers (int) x [ record offset (long) | delivery time (long) | destination | queue id (int) | born (long) ]
 *  transactions length (int) | transactions section (TransactionSnapshot's layout)     (version 2 on)
 *  producers length (int) | producers section (the idempotence ProducerSnapshot's layout) (version 3 on)
 *  CRC32C of everything before (int)
 * </pre>
 *
 * A run is consecutive pending offsets with the same counted deliveries: the messages a selector
 * refused lie in a few long runs, not one entry each. Versions 1 and 2 held one entry per
 * pending offset ({@code pending (int) x [ offset (long) | deliveries (int) ]}) and are still read,
 * each entry as a run of one; version 1 (no transaction section) as holding no transactions, and
 * both as holding no producers.
 * Pending deliveries are stored as counted, -1 for a message that counts none but may have been
 * delivered before a crash (QueueCursor.POSSIBLY_DELIVERED); after a crash the broker flags what
 * may have been delivered since, without counting it (QueueCursor.possiblyDeliveredBelow).
 */
public final class SnapshotDescriptor {

    public static final int MAGIC = 0x5241_4D53;
    public static final int VERSION = 3;
    /** Versions before 3 hold one entry per pending offset, not runs, and no producer section. */
    private static final int VERSION_WITH_PENDING_OFFSETS = 2;
    private static final int VERSION_WITHOUT_TRANSACTIONS = 1;

    private SnapshotDescriptor() {
    }

    /**
     * What a snapshot holds; {@code transactions} is {@link TransactionSnapshot}'s section and
     * {@code producers} the idempotent producers' section, both opaque here.
     */
    public record Contents(long position, List<DestinationEntry> destinations, List<SubscriptionEntry> subscriptions,
                           List<TimerEntry> timers, byte[] transactions, byte[] producers) {
    }

    /** A destination: name, kind, queue count. */
    public record DestinationEntry(String name, DestinationKind kind, int queueCount) {
    }

    /** A durable subscription with its terms and one cursor per message queue. */
    public record SubscriptionEntry(RecordKey key, String selector, boolean noLocal, List<CursorEntry> cursors) {
    }

    /**
     * A message queue's cursor: low-water mark, read offset, the logged delivery bound, and the
     * pending (in-flight or released) offsets above the low-water mark in runs, each
     * {first offset, offsets, deliveries}.
     */
    public record CursorEntry(long lowWater, long readOffset, long deliveryBound, List<long[]> pendingRuns) {
    }

    /** A pending timer: the delayed record's offset, when it is due, and where it goes. */
    public record TimerEntry(long physicalOffset, long deliveryTime, String destination, int queueId,
                             long bornTimestamp) {
    }

    public static byte[] encode(Contents contents) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeLong(contents.position());
            out.writeInt(contents.destinations().size());
            for (DestinationEntry d : contents.destinations()) {
                RecordCodec.writeString(out, d.name());
                RecordCodec.writeKind(out, d.kind());
                out.writeInt(d.queueCount());
            }
            out.writeInt(contents.subscriptions().size());
            for (SubscriptionEntry s : contents.subscriptions()) {
                RecordCodec.writeKey(out, s.key());
                RecordCodec.writeString(out, s.selector());
                out.writeBoolean(s.noLocal());
                out.writeInt(s.cursors().size());
                for (CursorEntry cursor : s.cursors()) {
                    out.writeLong(cursor.lowWater());
                    out.writeLong(cursor.readOffset());
                    out.writeLong(cursor.deliveryBound());
                    out.writeInt(cursor.pendingRuns().size());
                    for (long[] run : cursor.pendingRuns()) {
                        out.writeLong(run[0]);
                        out.writeInt((int) run[1]);
                        out.writeInt((int) run[2]);
                    }
                }
            }
            out.writeInt(contents.timers().size());
            for (TimerEntry t : contents.timers()) {
                out.writeLong(t.physicalOffset());
                out.writeLong(t.deliveryTime());
                RecordCodec.writeString(out, t.destination());
                out.writeInt(t.queueId());
                out.writeLong(t.bornTimestamp());
            }
            out.writeInt(contents.transactions().length);
            out.write(contents.transactions());
            out.writeInt(contents.producers().length);
            out.write(contents.producers());
        }
        byte[] body = bytes.toByteArray();
        CRC32C crc = new CRC32C();
        crc.update(body);
        return ByteBuffer.allocate(body.length + 4).put(body).putInt((int) crc.getValue()).array();
    }

    /** @throws IOException if the bytes are not an intact snapshot */
    public static Contents decode(byte[] bytes) throws IOException {
        if (bytes.length < 4) {
            throw new IOException("snapshot of " + bytes.length + " bytes");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        if ((int) crc.getValue() != ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt()) {
            throw new IOException("snapshot checksum mismatch");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, 0, bytes.length - 4))) {
            int version = in.readInt() == MAGIC ? in.readInt() : -1;
            if (version < VERSION_WITHOUT_TRANSACTIONS || version > VERSION) {
                throw new IOException("not a snapshot of version 1 to " + VERSION);
            }
            long position = in.readLong();
            int nd = in.readInt();
            List<DestinationEntry> destinations = new ArrayList<>(nd);
            for (int i = 0; i < nd; i++) {
                String name = RecordCodec.readString(in);
                destinations.add(new DestinationEntry(name, RecordCodec.readKind(in), in.readInt()));
            }
            int ns = in.readInt();
            List<SubscriptionEntry> subscriptions = new ArrayList<>(ns);
            for (int i = 0; i < ns; i++) {
                RecordKey key = RecordCodec.readKey(in);
                String selector = RecordCodec.readString(in);
                boolean noLocal = in.readBoolean();
                int queues = in.readInt();
                List<CursorEntry> cursors = new ArrayList<>(queues);
                for (int q = 0; q < queues; q++) {
                    long lowWater = in.readLong();
                    long readOffset = in.readLong();
                    long bound = in.readLong();
                    int np = in.readInt();
                    List<long[]> runs = new ArrayList<>(np);
                    for (int p = 0; p < np; p++) {
                        runs.add(version == VERSION ? new long[] {in.readLong(), in.readInt(), in.readInt()}
                                : new long[] {in.readLong(), 1, in.readInt()});
                    }
                    cursors.add(new CursorEntry(lowWater, readOffset, bound, runs));
                }
                subscriptions.add(new SubscriptionEntry(key, selector, noLocal, cursors));
            }
            int nt = in.readInt();
            List<TimerEntry> timers = new ArrayList<>(nt);
            for (int i = 0; i < nt; i++) {
                timers.add(new TimerEntry(in.readLong(), in.readLong(), RecordCodec.readString(in), in.readInt(),
                        in.readLong()));
            }
            byte[] transactions = version > VERSION_WITHOUT_TRANSACTIONS ? section(in, "transaction") : new byte[0];
            byte[] producers = version == VERSION ? section(in, "producer") : new byte[0];
            return new Contents(position, destinations, subscriptions, timers, transactions, producers);
        }
    }

    private static byte[] section(DataInputStream in, String which) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IOException(which + " section of " + length + " bytes");
        }
        return in.readNBytes(length);
    }
}
