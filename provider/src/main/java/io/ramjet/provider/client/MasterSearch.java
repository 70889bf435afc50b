package io.ramjet.provider.client;

import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * One search for a broker group's next master after its master was found gone: the NameServers
 * are asked ({@link BrokerClient#followMaster}, which also points the group's cached routes at
 * the master they name) with the pauses of a {@link Backoff}, until they name an acceptable
 * master or the timeout passes. The sends' failover ({@link GroupSends}) and the consumers'
 * ({@link BrokerFeeds}) both search this way. The pauses keep growing across the calls of
 * {@link #next}, so a master named but found gone again is not asked for in a tight loop.
 * Thread-safe.
 */
final class MasterSearch {

    private final BrokerClient brokers;
    private final String group;
    private final Backoff backoff;
    private boolean asked;
    private volatile boolean cancelled;

    /** A search that gives up {@code timeoutMillis} from now. */
    MasterSearch(BrokerClient brokers, String group, long timeoutMillis) {
        this.brokers = brokers;
        this.group = group;
        this.backoff = new Backoff(timeoutMillis);
    }

    /**
     * The address of the group's master once the NameServers name one that is {@code acceptable};
     * null once the timeout passed without one. The search's first ask goes at once, every later
     * one after a pause.
     */
    CompletableFuture<String> next(Predicate<String> acceptable) {
        boolean first;
        synchronized (this) {
            first = !asked;
            asked = true;
        }
        return first ? ask(acceptable) : backoff.pause().thenCompose(paused -> ask(acceptable));
    }

    /** Ends the search: the {@link #next} under way, and any later one, completes with null at its next ask. */
    void cancel() {
        cancelled = true;
    }

    private CompletableFuture<String> ask(Predicate<String> acceptable) {
        if (cancelled || backoff.expired()) {
            return CompletableFuture.completedFuture(null);
        }
        return brokers.followMaster(group).handle((address, failure) -> address)
                .thenCompose(address -> address != null && acceptable.test(address)
                        ? CompletableFuture.completedFuture(address)
                        : backoff.pause().thenCompose(paused -> ask(acceptable)));
    }
}
