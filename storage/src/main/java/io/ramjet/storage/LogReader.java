package io.ramjet.storage;

import io.ramjet.model.record.MessageRecordView;

/**
 * Reads back a record of the CommitLog: for a {@link DispatchListener} whose record names
 * earlier ones, the parts of a {@link RecordChain}. Valid while the store is open, from the
 * dispatching thread and during recovery.
 */
@FunctionalInterface
public interface LogReader {

    /**
     * The record at {@code physicalOffset}, checksum verified; a view of the mapped file.
     *
     * @throws RecordReadException if no intact record starts there
     */
    MessageRecordView read(long physicalOffset);
}
