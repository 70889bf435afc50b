package io.ramjet.storage;

/** What a {@link DispatchListener} may do to the ConsumeQueues: add entries at their logical offset. */
public interface ConsumeQueueWriter {

    /**
     * Puts an entry at {@code queueOffset} of the queue (destination, queueId), creating the
     * queue if needed. Re-putting an offset already present (as recovery does) is ignored.
     *
     * @return whether the entry was added
     */
    boolean put(String destination, int queueId, long queueOffset, long physicalOffset, int size,
                long tagSignature);
}
