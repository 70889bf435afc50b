package io.ramjet.server.broker.idempotence;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Layout of the producer section of the consumption snapshot: the {@link ProducerTable}'s
 * producers, oldest first. Integers big-endian.
 *
 * <pre>
 *  producers (int) x [ producer id (long) | sequence (long) | record offset (long) | record size (int)
 *                      | queue offset (long) | store timestamp (long) ]
 * </pre>
 *
 * A fence ({@link StoredSend#fence}) has no queue offset: its queue offset field holds
 * {@code -2 - heldUpTo} instead, so every value below -1 marks a fence.
 */
public final class ProducerSnapshot {

    private static final int ENTRY_LENGTH = 44;
    private static final long FENCE_MARK = -2;

    private ProducerSnapshot() {
    }

    public static byte[] encode(List<StoredSend> producers) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(4 + producers.size() * ENTRY_LENGTH);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(producers.size());
            for (StoredSend p : producers) {
                out.writeLong(p.producerId());
                out.writeLong(p.sequence());
                out.writeLong(p.physicalOffset());
                out.writeInt(p.size());
                out.writeLong(p.fence() ? FENCE_MARK - p.heldUpTo() : p.queueOffset());
                out.writeLong(p.storeTimestamp());
            }
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory failed", e);
        }
        return bytes.toByteArray();
    }

    /** @throws IOException if the bytes are not a section {@link #encode} wrote */
    public static List<StoredSend> decode(byte[] section) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(section))) {
            int count = in.readInt();
            if (count < 0 || (long) count * ENTRY_LENGTH != in.available()) {
                throw new IOException("producer section of " + section.length + " bytes for " + count + " producers");
            }
            List<StoredSend> producers = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                long producerId = in.readLong();
                long sequence = in.readLong();
                long physicalOffset = in.readLong();
                int size = in.readInt();
                long queueOffset = in.readLong();
                long storeTimestamp = in.readLong();
                producers.add(queueOffset <= FENCE_MARK
                        ? new StoredSend(producerId, sequence, physicalOffset, size, -1, storeTimestamp,
                        FENCE_MARK - queueOffset)
                        : new StoredSend(producerId, sequence, physicalOffset, size, queueOffset, storeTimestamp));
            }
            return producers;
        }
    }
}
