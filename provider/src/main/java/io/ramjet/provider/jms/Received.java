package io.ramjet.provider.jms;

import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.message.MessageCodec;
import io.ramjet.provider.message.RamjetMessage;

/**
 * A delivery prefetched by a {@link ConsumerPipeline}, with its priority and when it came, nanos;
 * its message is decoded and admitted ({@link MessageAdmission}) when it is taken, on the thread
 * that takes it, not on the I/O thread that took the pull's answer in. Guarded by the thread that
 * took it.
 */
final class Received {

    private final Delivery delivery;
    private final int priority;
    private final long arrivedAt;
    private RamjetMessage message;

    Received(Delivery delivery, long arrivedAt) {
        this.delivery = delivery;
        this.priority = MessageCodec.priorityOf(delivery.properties());
        this.arrivedAt = arrivedAt;
    }

    Delivery delivery() {
        return delivery;
    }

    int priority() {
        return priority;
    }

    /** When the delivery came, {@link System#nanoTime()}. */
    long arrivedAt() {
        return arrivedAt;
    }

    /** The message, once admitted. */
    RamjetMessage message() {
        return message;
    }

    /** Admission's outcome: the message, or null when the application is not to see it. */
    void admitted(RamjetMessage admitted) {
        message = admitted;
    }

    int bytes() {
        return delivery.size();
    }
}
