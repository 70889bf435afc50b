package io.ramjet.server.broker.transaction;

import io.ramjet.model.TxState;
import io.ramjet.server.broker.session.ClientSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Resolves transactions whose client went quiet. Every run, each transaction older than the
 * check timeout that is not a prepared XA branch (those wait for their transaction manager)
 * is checked, one check at a time per transaction:
 * <ul>
 *   <li>its owner still connected: a check-back to it; COMMITTED or ROLLED_BACK is applied, OPEN
 *       is asked again next run, UNKNOWN rolls back, except a prepared one, which asks its
 *       coordinator;</li>
 *   <li>no owner (it closed, or the broker restarted): an unprepared transaction rolls back; a
 *       prepared one asks its coordinator and applies the answer;</li>
 *   <li>after the maximum number of checks an unprepared transaction rolls back; a prepared
 *       one keeps asking its coordinator, with a warning each time.</li>
 *   <li>a parked send ({@link ParkedSends}) is a prepared transaction without owner: its
 *       coordinator is its origin group, asked once its half is here.</li>
 * </ul>
 * The maximum bounds orphans, not age: it counts the checks since the owner last answered OPEN
 * (every check, if it never did), so a transaction whose connected owner keeps answering OPEN
 * lives as long as that connection, as a JMS transaction lives as long as its session, while one
 * whose owner stays silent rolls back after the maximum.
 * Run periodically on a timer thread; it only starts asynchronous requests and never blocks.
 */
final class CheckBackScanner implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(CheckBackScanner.class);

    private final TransactionTable table;
    private final TransactionResolver resolver;
    private final Coordinators coordinators;
    private final long checkAfterMillis;
    private final int maxChecks;
    private final Duration requestTimeout;

    CheckBackScanner(TransactionTable table, TransactionResolver resolver, Coordinators coordinators,
                     Duration checkAfter, Duration checkInterval, int maxChecks) {
        this.table = table;
        this.resolver = resolver;
        this.coordinators = coordinators;
        this.checkAfterMillis = checkAfter.toMillis();
        this.maxChecks = maxChecks;
        Duration floor = Duration.ofSeconds(1);
        this.requestTimeout = checkInterval.compareTo(floor) < 0 ? floor : checkInterval;
    }

    @Override
    public void run() {
        long now = System.currentTimeMillis();
        for (Transaction t : table.all()) {
            try {
                if (!t.preparedBranch() && now - t.since() >= checkAfterMillis && t.startCheck()) {
                    check(t).whenComplete((done, failure) -> {
                        t.checkDone();
                        if (failure != null) {
                            LOG.warn("{}: check-back failed, trying again next time: {}", t, failure.toString());
                        }
                    });
                }
            } catch (RuntimeException e) {
                t.checkDone();
                LOG.error("{}: check-back failed", t, e);
            }
        }
    }

    private CompletableFuture<Void> check(Transaction t) {
        if (ParkedSends.parked(t) && t.halves().isEmpty()) {
            // its half comes with the client's resend: a decision now would decide nothing
            return CompletableFuture.completedFuture(null);
        }
        ClientSession owner = t.owner();
        if (owner != null && owner.isOpen()) {
            return owner.checkBack(t.id(), requestTimeout).thenCompose(state -> ownerAnswered(t, state));
        }
        if (t.prepared() && !t.coordinator().isEmpty()) {
            return askCoordinator(t);
        }
        LOG.info("{}: its owner is gone, rolling it back", t);
        return end(t, false);
    }

    /** @param state the owner's answer, null when it did not answer */
    private CompletableFuture<Void> ownerAnswered(Transaction t, TxState state) {
        if (state == TxState.COMMITTED || state == TxState.ROLLED_BACK) {
            LOG.info("{}: its owner answers {}", t, state);
            return end(t, state == TxState.COMMITTED);
        }
        if (state == TxState.OPEN) {
            t.ownerAnsweredOpen();
            return CompletableFuture.completedFuture(null);
        }
        boolean askCoordinator = t.prepared() && !t.coordinator().isEmpty();
        if (state == TxState.UNKNOWN || (state == null && !t.ownerAlive())) {
            if (askCoordinator) {
                return askCoordinator(t);
            }
            LOG.info("{}: its owner {}, rolling it back", t, state == null ? "is gone" : "does not know it");
            return end(t, false);
        }
        if (t.checks() >= maxChecks) {
            if (!t.prepared()) {
                LOG.warn("{}: its owner left {} checks unanswered, rolling it back", t, t.checks());
                return end(t, false);
            }
            LOG.warn("{}: prepared, and its owner left {} checks unanswered", t, t.checks());
        }
        return CompletableFuture.completedFuture(null);
    }

    private CompletableFuture<Void> askCoordinator(Transaction t) {
        String coordinator = t.coordinator();
        return coordinators.query(coordinator, t.id(), requestTimeout)
                .thenCompose(state -> {
                    if (state == TxState.COMMITTED || state == TxState.ROLLED_BACK) {
                        LOG.info("{}: coordinator {} answers {}", t, coordinator, state);
                        return end(t, state == TxState.COMMITTED);
                    }
                    // a parked send's origin logs its silence once (ParkedOrigins), not at every check
                    if (t.checks() >= maxChecks && !ParkedSends.parked(t)) {
                        LOG.warn("{}: coordinator {} still has it open after {} checks", t, coordinator, t.checks());
                    }
                    return CompletableFuture.completedFuture(null);
                });
    }

    private CompletableFuture<Void> end(Transaction t, boolean commit) {
        try {
            return resolver.end(t.id(), "", commit, List.of());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
