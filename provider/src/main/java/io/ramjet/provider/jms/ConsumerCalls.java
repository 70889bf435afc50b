package io.ramjet.provider.jms;

import io.ramjet.provider.destination.RamjetDestination;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How a consumer reports the calls to its brokers it does not wait for: logged, never thrown. */
final class ConsumerCalls {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerCalls.class);

    private final RamjetSession session;
    private final long consumerId;
    private final RamjetDestination destination;

    ConsumerCalls(RamjetSession session, long consumerId, RamjetDestination destination) {
        this.session = session;
        this.consumerId = consumerId;
        this.destination = destination;
    }

    /**
     * A call on close that may fail without harm: a broker that cannot be reached has dropped
     * this consumer with the transport, making what it held visible again.
     */
    CompletableFuture<Void> bestEffort(CompletableFuture<Void> call, String what) {
        return call.exceptionally(failure -> {
            LOG.debug("consumer {} of {}: {} on close failed; the broker drops the consumer with the transport",
                    consumerId, destination, what, failure);
            return null;
        });
    }

    /** Logs {@code call}'s failure, unless the connection is closed (which failed it). */
    void logFailure(CompletableFuture<Void> call, String what) {
        call.whenComplete((done, failure) -> {
            if (failure != null && !session.connection().isClosed()) {
                LOG.warn("consumer {} of {}: {} failed", consumerId, destination, what, failure);
            }
        });
    }
}
