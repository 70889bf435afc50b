package io.ramjet.server.broker.large;

import io.ramjet.model.record.LargeBodyDescriptor;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.RecordReadException;

import java.nio.ByteBuffer;

/**
 * The broker's rules for large messages stored as CHUNK records before a message record whose
 * body is their chunk table ({@link LargeBodyDescriptor}): which tables a SEND may store, which
 * chunk a reader may have, and how far back a message record's chunks reach. Thread-safe.
 */
public final class LargeMessages {

    private final MessageStore store;

    public LargeMessages(MessageStore store) {
        this.store = store;
    }

    /**
     * Checks that {@code table} names only intact CHUNK records of its own upload, in index order,
     * whose bodies add up to its stored length.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public LargeBodyDescriptor.Table checkTable(ByteBuffer table) {
        LargeBodyDescriptor.Table t = LargeBodyDescriptor.decode(table);
        long stored = 0;
        long[] offsets = t.chunkOffsets();
        for (int i = 0; i < offsets.length; i++) {
            MessageRecordView chunk = chunk(offsets[i], t.uploadId());
            if (chunk.queueId() != i) {
                throw new IllegalArgumentException("chunk " + i + " of upload " + Long.toHexString(t.uploadId())
                        + " is its chunk " + chunk.queueId());
            }
            stored += chunk.body().remaining();
        }
        if (stored != t.storedLength()) {
            throw new IllegalArgumentException("chunks of " + stored + " bytes for a table of " + t.storedLength());
        }
        return t;
    }

    /**
     * The chunk record at {@code offset}, if it is one of upload {@code uploadId}.
     *
     * @throws IllegalArgumentException if no intact chunk of that upload is there (gone, another
     *                                  record, another upload's)
     */
    public MessageRecordView chunk(long offset, long uploadId) {
        MessageRecordView record;
        try {
            record = store.read(offset);
        } catch (RecordReadException e) {
            throw new IllegalArgumentException("no chunk at offset " + offset + ": " + e.getMessage());
        }
        if (record.type() != RecordType.CHUNK || record.queueOffset() != uploadId) {
            throw new IllegalArgumentException("no chunk of upload " + Long.toHexString(uploadId) + " at offset "
                    + offset);
        }
        return record;
    }

    /**
     * The lowest CommitLog offset the message record at {@code offset} needs: its first chunk's for
     * a large message, else its own. {@code offset} itself when no record is readable there.
     */
    public long firstNeeded(long offset) {
        try {
            MessageRecordView record = store.read(offset);
            if (!RecordFlags.isSet(record.flags(), RecordFlags.LARGE)) {
                return offset;
            }
            return Math.min(offset, LargeBodyDescriptor.decode(record.body()).firstOffset());
        } catch (RecordReadException | IllegalArgumentException unreadable) {
            return offset;
        }
    }
}
