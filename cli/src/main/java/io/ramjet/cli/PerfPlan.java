package io.ramjet.cli;

import java.time.Duration;

/**
 * What a {@code perf} run does.
 *
 * @param queue           the queue the run sends to and receives from
 * @param count           messages to send in all, split over the producers; 0 when {@code duration} bounds the run
 * @param duration        how long the producers send when {@code count} is 0
 * @param size            bytes of each message's body
 * @param persistent      PERSISTENT or NON_PERSISTENT sends
 * @param producers       producer threads, a session each on one connection
 * @param consumers       consumer threads, a session each on that connection
 * @param transactedBatch 0 for non-transacted sessions, else messages per commit, on both sides
 * @param drainWait       how long the consumers may stay without a message once the producers are done before
 *                        the missing ones count as lost
 */
record PerfPlan(String queue, long count, Duration duration, int size, boolean persistent, int producers,
                int consumers, int transactedBatch, Duration drainWait) {

    PerfPlan {
        if (count < 0 || (count == 0 && duration.isZero()) || size < 0 || producers < 1 || consumers < 1
                || transactedBatch < 0) {
            throw new IllegalArgumentException("a perf run needs a count or a duration, a size of 0 or more, one"
                    + " producer and one consumer at least, a batch of 0 or more");
        }
    }

    /** How many messages producer {@code index} sends in a counted run. */
    long countOf(int index) {
        return count / producers + (index < count % producers ? 1 : 0);
    }
}
