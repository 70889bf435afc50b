package io.ramjet.reliability;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.awaitility.core.ConditionFactory;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Waits whose outcome a test records rather than asserts at once, on Awaitility. A reliability
 * test waits for the traffic to drain or a fault to show, then reports what it counted (its tally,
 * the seed, the logs) whether or not the wait succeeded; so these answer whether the condition
 * held in time instead of throwing {@link ConditionTimeoutException}. A wait whose failure is the
 * test's failure uses Awaitility directly. Conditions are polled on the calling thread, every 50
 * ms from the first instant: some send on the test's JMS session.
 */
final class Await {

    private static final Duration STEP = Duration.ofMillis(50);

    private Await() {
    }

    /** @return whether {@code condition} held before {@code timeout} passed */
    static boolean until(Duration timeout, BooleanSupplier condition) {
        return held(polling(timeout), condition);
    }

    /**
     * Waits until {@code value} has not changed for {@code quiet}, at most {@code timeout}: a
     * count of deliveries that has settled. Awaitility's {@code during} holds a condition for a
     * time and starts again when it fails; the condition here is that the value equals the one
     * read at the poll before.
     *
     * @return whether it settled
     */
    static boolean settled(Duration quiet, Duration timeout, LongSupplier value) {
        AtomicLong last = new AtomicLong(value.getAsLong());
        return held(polling(timeout).during(quiet), () -> {
            long now = value.getAsLong();
            return last.getAndSet(now) == now;
        });
    }

    private static ConditionFactory polling(Duration timeout) {
        return await().atMost(timeout).pollInSameThread().pollDelay(Duration.ZERO).pollInterval(STEP);
    }

    private static boolean held(ConditionFactory wait, BooleanSupplier condition) {
        try {
            wait.until(condition::getAsBoolean);
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }
}
