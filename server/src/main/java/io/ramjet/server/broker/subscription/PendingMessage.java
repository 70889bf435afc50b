package io.ramjet.server.broker.subscription;

import java.util.Arrays;

/**
 * One message of a message queue above its cursor's low-water mark that is not yet acknowledged:
 * either in flight to a consumer, or visible and waiting to be offered again.
 * Mutable; owned by its {@link QueueCursor} and guarded by the same lock.
 */
final class PendingMessage {

    static final long NO_CONSUMER = -1;

    private static final long[] NO_ONE = new long[0];

    final long offset;
    int deliveries;
    long consumer = NO_CONSUMER;
    /** Its message group once read from its record, null before; counted in its cursor's groups while in flight. */
    GroupTag group;
    /** Whether its cursor's groups count it in flight: claimed with its tag and not yet ended. */
    boolean countedInGroup;
    private long[] excluded = NO_ONE;

    PendingMessage(long offset, int deliveries) {
        this.offset = offset;
        this.deliveries = deliveries;
    }

    boolean inFlight() {
        return consumer != NO_CONSUMER;
    }

    boolean offerableTo(long consumerId) {
        return !inFlight() && !excludes(consumerId);
    }

    boolean excludes(long consumerId) {
        for (long c : excluded) {
            if (c == consumerId) {
                return true;
            }
        }
        return false;
    }

    void exclude(long consumerId) {
        if (!excludes(consumerId)) {
            excluded = Arrays.copyOf(excluded, excluded.length + 1);
            excluded[excluded.length - 1] = consumerId;
        }
    }

    /**
     * Ends a delivery. A counted one changes the message's JMSXDeliveryCount, which a selector
     * may name, so the consumers that refused it are asked again.
     */
    void makeVisible(boolean countDelivery) {
        consumer = NO_CONSUMER;
        if (countDelivery) {
            deliveries++;
            excluded = NO_ONE;
        }
    }
}
