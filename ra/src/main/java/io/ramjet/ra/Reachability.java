package io.ramjet.ra;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the brokers of one connection setting answer, as the adapter's message-driven sessions
 * find out: an outage is logged once, when the first session loses its connection or cannot
 * open one, and its end once, when the last failing session connected again, however many
 * sessions retry how often in between. Thread-safe.
 */
final class Reachability {

    private static final Logger LOG = LoggerFactory.getLogger(Reachability.class);

    private final ConnectionSettings settings;
    private final Set<Object> failing = Collections.newSetFromMap(new IdentityHashMap<>());
    private long outageStart;

    Reachability(ConnectionSettings settings) {
        this.settings = settings;
    }

    /** {@code session} lost its connection or could not open one. */
    void failed(Object session, Throwable cause) {
        synchronized (failing) {
            boolean first = failing.isEmpty();
            failing.add(session);
            if (first) {
                outageStart = System.nanoTime();
                LOG.warn("{} does not answer: {}; message-driven sessions reconnect quietly until it does",
                        settings, cause.toString());
            }
        }
        LOG.debug("session {} failed on {}", session, settings, cause);
    }

    /** {@code session} connected; the outage ends when it was the last failing one. */
    void connected(Object session) {
        synchronized (failing) {
            if (failing.remove(session) && failing.isEmpty()) {
                LOG.info("{} answers again, after {} ms without", settings,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - outageStart));
            }
        }
    }

    /** {@code session} ended without connecting again: it no longer keeps an outage open. */
    void forget(Object session) {
        synchronized (failing) {
            failing.remove(session);
        }
    }
}
