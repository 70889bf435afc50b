package io.ramjet.bench.workload;

import java.time.Duration;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The operations the benchmark times, one implementation per client API (JMS for Ramjet and
 * Artemis, RocketMQ's own client for RocketMQ), so every peer runs the same scenario. Bodies are
 * {@code size} bytes; a destination name is used by one call only (plus the drain that follows
 * it). Every phase moves exactly the count it is given, so that every peer does the same work,
 * and its timer stops at its last message (closing clients is not timed).
 */
public interface Workloads extends AutoCloseable {

    /**
     * Unconfirmed asynchronous sends a producer may have outstanding, whatever the client (the
     * latency run allows ten times this, so that a stalled broker shows as latency).
     */
    int ASYNC_WINDOW = 1_000;

    /**
     * Producers send {@code count} messages to a queue: a persistent send is synchronous (it
     * returns when the broker has it on disk), a non-persistent one asynchronous as the client
     * does it by default or with {@link #ASYNC_WINDOW} unconfirmed sends.
     */
    Rate send(String queue, long count, int size, boolean persistent) throws Exception;

    /** {@link #send(String, long, int, boolean)} with {@code producers} producers instead of the run's. */
    Rate send(String queue, long count, int size, boolean persistent, int producers) throws Exception;

    /**
     * Consumers receive exactly {@code count} messages from a queue, acknowledging them in
     * {@code ack}'s way; throws {@link io.ramjet.bench.workload.NotApplicableException} for a mode the client
     * has not ({@link #acknowledgementGap}).
     */
    Rate drain(String queue, long count, Acknowledgement ack) throws Exception;

    /** {@link #drain(String, long, Acknowledgement)} with {@code consumers} competing consumers instead of the run's. */
    Rate drain(String queue, long count, Acknowledgement ack, int consumers) throws Exception;

    /**
     * Opens {@code connections} connections, each with a session and a started consumer on
     * {@code queue}, and keeps them open until the returned handle is closed: what a broker holds
     * per connection. Throws {@link NotApplicableException} for a client that has no connection of
     * its own per consumer.
     */
    AutoCloseable openConsumers(String queue, int connections) throws Exception;

    /** {@link #drain(String, long, Acknowledgement)} in the client's first mode ({@link #acknowledgements}). */
    default Rate drain(String queue, long count) throws Exception {
        return drain(queue, count, acknowledgements().get(0));
    }

    /** The acknowledgement modes this client drains in, its default first. */
    default java.util.List<Acknowledgement> acknowledgements() {
        return java.util.List.of(Acknowledgement.values());
    }

    /** Why this client has no {@code ack} mode, or null if it has. */
    default String acknowledgementGap(Acknowledgement ack) {
        return acknowledgements().contains(ack) ? null : "this client has no " + ack.label();
    }

    /** One producer sends {@code count} persistent messages, committing every {@code commitEvery}. */
    Rate transactedSend(String queue, long count, int size, int commitEvery) throws Exception;

    /**
     * One producer sends {@code count} persistent messages in one transaction; returns how long
     * its commit takes (the sends are not timed): what a batch job waits for at its end.
     */
    Duration largeTransactionCommit(String queue, long count, int size) throws Exception;

    /**
     * Producers send {@code count} persistent messages asynchronously ({@link #ASYNC_WINDOW}
     * unconfirmed sends), then wait for every confirmation: a fast way to store a backlog.
     */
    Rate sendAsync(String queue, long count, int size) throws Exception;

    /**
     * One producer sends persistent messages asynchronously at a fixed rate for {@code duration}
     * while one consumer receives them; the histogram holds end-to-end latencies in microseconds,
     * measured from the moment each message was due to be sent (so a stalled producer counts).
     */
    Histogram latency(String queue, int size, int perSecond, Duration duration) throws Exception;

    /**
     * Stores {@code count} non-persistent messages (sent asynchronously) with {@code color} over ten values and {@code n} a
     * permutation of 0..count-1, then times one consumer that selects a tenth of them: by
     * {@code color = 'red'} when {@code tagged}, else by {@code n BETWEEN 0 AND count/10 - 1}.
     * Returns the time from creating that consumer to its last matching message.
     */
    Duration selective(String queue, long count, int size, boolean tagged) throws Exception;

    /**
     * Opens {@code subscribers} consumers on one topic, a connection each, and a producer to it
     * ({@link FanOut}), to be timed by {@link FanOut#send}. {@code durable}: each consumer on a
     * durable subscription of its own (removed on close), the messages persistent; else
     * non-durable subscribers and non-persistent messages.
     */
    FanOut openFanOut(String topic, int subscribers, boolean durable) throws Exception;

    /**
     * A producer that sends to {@code queue} while the caller kills the broker ({@link Failover});
     * throws {@link NotApplicableException} for a client that has no failover to measure.
     */
    default Failover failover(String queue) throws Exception {
        throw new NotApplicableException("no failover measured with this client");
    }

    /**
     * Stores {@code groups} x {@code perGroup} persistent messages, each of a group (JMS:
     * {@code JMSXGroupID}; RocketMQ: a key its queue selector hashes), then times {@code consumers}
     * competing consumers taking them in each group's order; fails if a group arrives out of order.
     */
    Rate orderedGroups(String queue, int groups, long perGroup, int size, int consumers) throws Exception;

    /**
     * One producer sends one persistent message (synchronously) to each of {@code count} queues
     * named {@code prefix} and a number, each created by that first send; the rate counts queues.
     */
    Rate manyDestinations(String prefix, int count, int size) throws Exception;

    /**
     * One producer sends {@code count} persistent messages of {@code size} bytes each,
     * synchronously, each body streamed from an {@code InputStream} through the client's
     * large-message API (JMS: the vendor's {@code InputStream} property of a BytesMessage), so the
     * client never holds a body whole.
     */
    Rate largeSend(String queue, long count, int size) throws Exception;

    /**
     * One consumer receives exactly {@code count} messages of {@link #largeSend}, each body written to an
     * {@code OutputStream} that counts it (JMS: the vendor's {@code SaveStream} property), in the
     * client's first acknowledgement mode; fails if a body is not {@code size} bytes.
     */
    Rate largeDrain(String queue, long count, int size) throws Exception;

    /**
     * One connection creates a temporary queue and deletes it, {@code count} times; the
     * histogram holds each pair's time in microseconds.
     */
    Histogram temporaryQueues(int count) throws Exception;

    /**
     * The most heap the client's JVM had in use at once since the last call, in bytes, summed over
     * its heap pools, whose peaks it then resets: this JVM's where the client runs in it.
     */
    default long peakHeapBytes() throws Exception {
        return HeapPeak.takeBytes();
    }

    /** A full collection in the client's JVM. */
    default void collectGarbage() throws Exception {
        System.gc();
    }

    /** The settings the client's JVM stated (its Netty, JVM, class path); none where it runs in this JVM. */
    default Map<String, String> settings() {
        return Map.of();
    }
}
