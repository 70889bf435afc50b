package io.ramjet.bench.workload;

import java.time.Duration;

/**
 * What a JMS user sees when the broker it sends to dies ({@link Workloads#failover}): a producer
 * thread in the client's JVM sends persistent 1 KiB messages to one queue, each synchronously,
 * from {@link #start} until closed. A send that fails is tried again {@link #RETRY_PAUSE} later, as a
 * user's loop would, on a new connection if the old one was closed. The caller marks the moment
 * just before it kills the broker ({@link #killing}) and the moment its JVM has exited
 * ({@link #exited}); every timer is the client JVM's.
 */
public interface Failover extends AutoCloseable {

    /** The pause before a failed send is tried again. */
    Duration RETRY_PAUSE = Duration.ofMillis(5);

    /** The time from the kill to the next successful send, the sends that failed and the connections opened meanwhile. */
    record Outcome(long millis, int failedSends, int newConnections) {

        /** The outcome as three numbers, separated by spaces. */
        public String encode() {
            return millis + " " + failedSends + " " + newConnections;
        }

        public static Outcome decode(String s) {
            String[] p = s.split(" ");
            return new Outcome(Long.parseLong(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2]));
        }
    }

    /** Starts the producer; returns once {@code sends} sends have been answered, the producer going on sending. */
    void start(int sends) throws Exception;

    /** Notes the kill's moment: the caller kills the broker right after this returns. */
    void killing() throws Exception;

    /**
     * Notes that the broker's JVM has exited and waits for the end of the first successful send
     * that began after this moment (so no answer of the dead broker counts); fails if none ends
     * within {@code patience} of the kill.
     */
    Outcome exited(Duration patience) throws Exception;
}
