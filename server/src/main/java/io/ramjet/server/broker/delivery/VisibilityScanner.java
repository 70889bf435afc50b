package io.ramjet.server.broker.delivery;

import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Consumer;

/**
 * Makes deliveries whose visibility deadline passed visible again, counting a delivery (the
 * consumer may have seen them), and wakes the pulls held on their destinations. Run
 * periodically by the broker's timer; the redelivery and dead-letter decisions happen at the
 * next fetch.
 */
public final class VisibilityScanner implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(VisibilityScanner.class);

    private final SubscriptionTable subscriptions;
    private final Consumer<Subscription> woken;

    /** @param woken told about each subscription that has messages visible again */
    public VisibilityScanner(SubscriptionTable subscriptions, Consumer<Subscription> woken) {
        this.subscriptions = subscriptions;
        this.woken = woken;
    }

    @Override
    public void run() {
        try {
            long now = System.currentTimeMillis();
            for (Subscription s : subscriptions.all()) {
                if (!s.expire(now).isEmpty()) {
                    woken.accept(s);
                }
            }
        } catch (RuntimeException e) {
            LOG.error("visibility scan failed", e);
        }
    }

    /** The scan period for a visibility timeout: a tenth of it, between 10 ms and 1 s. */
    public static long periodMillis(long visibilityMillis) {
        return Math.max(10, Math.min(1000, visibilityMillis / 10));
    }
}
