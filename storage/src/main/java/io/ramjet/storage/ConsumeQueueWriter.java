package io.ramjet.storage;

/**
 * What a {@link DispatchListener} may do to the ConsumeQueues: add entries at their logical
 * offset, and delete a destination's queues at the point of the log where it was deleted.
 */
public interface ConsumeQueueWriter {

    /**
     * Puts an entry at {@code queueOffset} of the queue (destination, queueId), creating the
     * queue if needed. Re-putting an offset already present (as recovery does) is ignored.
     *
     * @return whether the entry was added
     */
    boolean put(String destination, int queueId, long queueOffset, long physicalOffset, int size,
                long tagSignature);

    /**
     * Deletes every ConsumeQueue of {@code destination} (a storage name) with its files and
     * directory; entries put afterwards start new queues. Meant for the dispatch of a record
     * that deletes the destination: recovery dispatches that record again after the records
     * before it, so a deletion interrupted by a crash is completed, and entries written before
     * it are not brought back. Idempotent.
     *
     * @throws StoreException if a file cannot be deleted (the dispatcher retries the record)
     */
    void deleteQueues(String destination);
}
