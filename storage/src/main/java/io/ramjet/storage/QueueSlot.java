package io.ramjet.storage;

import java.util.Objects;

/**
 * A ConsumeQueue position that {@link MessageStore#append(java.util.List, java.util.function.Function, boolean)}
 * reserves for a record that makes other, already written records visible (a transaction's
 * COMMIT): the store hands out the queue's next offset under the append lock, and the
 * dispatch listener later puts the entry there.
 *
 * @param destination the destination's storage name
 * @param queueId     the message queue within it
 */
public record QueueSlot(String destination, int queueId) {

    public QueueSlot {
        Objects.requireNonNull(destination, "destination");
        if (queueId < 0) {
            throw new IllegalArgumentException("queueId " + queueId);
        }
    }
}
