package io.ramjet.bench.workload;

/**
 * Subscribers of one topic and a producer to it, opened before a fan-out is timed
 * ({@link Workloads#openFanOut}): their connections and subscriptions are set up, and closing
 * them (durable subscriptions removed) comes after, so neither is in the timed part nor in the
 * brokers' CPU reading around it.
 */
public interface FanOut extends AutoCloseable {

    /**
     * The producer sends {@code count} messages of {@code size} bytes asynchronously (persistent
     * to durable subscribers, else non-persistent); returns once every subscriber has received
     * each, the rate counting deliveries ({@code count} x subscribers) from the first send to the
     * last delivery.
     */
    Rate send(long count, int size) throws Exception;
}
