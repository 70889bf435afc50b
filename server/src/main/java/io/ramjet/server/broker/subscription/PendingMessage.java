package io.ramjet.server.broker.subscription;

/**
 * What a cursor remembers of one message of a message queue above its low-water mark that is not
 * yet acknowledged, beyond its offset: whether it is in flight and to whom, its counted
 * deliveries, its group. A pending message that is visible, never delivered and whose group was
 * never read needs none ({@link QueueCursor} keeps it as a bit).
 * Mutable; owned by its {@link QueueCursor} and guarded by the same lock.
 */
final class PendingMessage {

    static final long NO_CONSUMER = -1;

    final long offset;
    int deliveries;
    /**
     * Whether a delivery may have happened that the broker could not see end (claimed before a
     * crash): JMSRedelivered is set, but nothing is counted towards the dead-letter limit.
     */
    boolean possiblyDelivered;
    long consumer = NO_CONSUMER;
    /**
     * Whether the application of the consumer it is in flight to was given it (a transaction of
     * its session named it): ending this delivery counts it, whatever the release says.
     */
    boolean seen;
    /** Its message group once read from its record, null before; counted in its cursor's groups while in flight. */
    GroupTag group;
    /** Whether its cursor's groups count it in flight: claimed with its tag and not yet ended. */
    boolean countedInGroup;

    PendingMessage(long offset, int deliveries) {
        this.offset = offset;
        this.deliveries = deliveries;
    }

    /** The JMSXDeliveryCount of its next delivery: at least 2 once it may have been delivered, as JMSRedelivered requires. */
    int nextDeliveryCount() {
        return possiblyDelivered ? Math.max(2, deliveries + 1) : deliveries + 1;
    }

    boolean inFlight() {
        return consumer != NO_CONSUMER;
    }

    /** Whether ending this delivery counts it: asked to, or the application was given the message. */
    boolean counts(boolean countDelivery) {
        return countDelivery || seen;
    }

    /** Ends a delivery, counting it when {@code countDelivery}; its cursor forgets who refused it then. */
    void makeVisible(boolean countDelivery) {
        consumer = NO_CONSUMER;
        seen = false;
        if (countDelivery) {
            deliveries++;
        }
    }
}
