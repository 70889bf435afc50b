package io.ramjet.provider.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One search for a broker group's next master after its master was found gone: the NameServers
 * are asked ({@link BrokerClient#followMaster}, which also points the group's cached routes at
 * the master they name) at once, then after a pause of {@value #FIRST_BACKOFF_MILLIS} ms
 * doubling up to {@value #MAX_BACKOFF_MILLIS} ms between asks, until they name an acceptable
 * master or the deadline passes. The sends' failover ({@link GroupSends}) and the consumers'
 * ({@link BrokerFeeds}) both search this way. The pauses keep growing across the calls of
 * {@link #next}, so a master named but found gone again is not asked for in a tight loop.
 * Thread-safe.
 */
final class MasterSearch {

    private static final long FIRST_BACKOFF_MILLIS = 50;
    private static final long MAX_BACKOFF_MILLIS = 400;

    private final BrokerClient brokers;
    private final String group;
    private final long deadlineNanos;
    private final long timeoutMillis;
    private long backoffMillis = FIRST_BACKOFF_MILLIS;
    private boolean asked;

    /** A search that gives up {@code timeoutMillis} from now. */
    MasterSearch(BrokerClient brokers, String group, long timeoutMillis) {
        this.brokers = brokers;
        this.group = group;
        this.timeoutMillis = timeoutMillis;
        this.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }

    String group() {
        return group;
    }

    long timeoutMillis() {
        return timeoutMillis;
    }

    /**
     * The address of the group's master once the NameServers name one that is {@code acceptable};
     * null once the deadline passed without one. The first ask of a search goes at once, every
     * later one after a pause.
     */
    CompletableFuture<String> next(Predicate<String> acceptable) {
        long pause = pauseBeforeAsking();
        if (pause == 0) {
            return ask(acceptable);
        }
        return CompletableFuture.supplyAsync(() -> null, CompletableFuture.delayedExecutor(pause, TimeUnit.MILLISECONDS))
                .thenCompose(paused -> ask(acceptable));
    }

    private CompletableFuture<String> ask(Predicate<String> acceptable) {
        if (System.nanoTime() - deadlineNanos > 0) {
            return CompletableFuture.completedFuture(null);
        }
        return brokers.followMaster(group).handle((address, failure) -> address)
                .thenCompose(address -> address != null && acceptable.test(address)
                        ? CompletableFuture.completedFuture(address) : next(acceptable));
    }

    private synchronized long pauseBeforeAsking() {
        if (!asked) {
            asked = true;
            return 0;
        }
        long pause = backoffMillis;
        backoffMillis = Math.min(MAX_BACKOFF_MILLIS, backoffMillis * 2);
        return pause;
    }
}
