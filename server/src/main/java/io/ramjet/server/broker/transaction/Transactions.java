package io.ramjet.server.broker.transaction;

import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.session.ClientSession;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.server.broker.timer.DelayedMessages;
import io.ramjet.storage.MessageStore;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A broker's transactions: half-message two-phase commit with check-back. Before the store
 * opens it offers the {@link #table()} to the snapshot and the {@link #dispatch()} to the
 * dispatch listener; once the store has recovered, {@link #start} holds again what prepared
 * transactions consumed, offers what clients and coordinators ask ({@link #clients()},
 * {@link #coordinatorQuery()}), rolls back the transactions of sessions that close
 * ({@link #sessionClosed}) and schedules the {@link CheckBackScanner}.
 */
public final class Transactions implements AutoCloseable {

    /** The check-back settings. */
    public record Settings(Duration checkAfter, Duration checkInterval, int maxChecks) {
    }

    private final TransactionTable table = new TransactionTable();
    private final ConsumedMessages consumed;
    private final TransactionDispatch dispatch;
    private volatile boolean serving;
    private ClientTransactions clients;
    private CoordinatorQuery coordinatorQuery;
    private LostOwners lostOwners;
    private ParkedSends parkedSends;

    public Transactions(SubscriptionTable subscriptions, HeldPulls heldPulls, DelayedMessages delayed) {
        this.consumed = new ConsumedMessages(subscriptions, heldPulls);
        this.dispatch = new TransactionDispatch(table, consumed, delayed, heldPulls);
    }

    public TransactionTable table() {
        return table;
    }

    public TransactionDispatch dispatch() {
        return dispatch;
    }

    /** The snapshot just loaded holds every transaction record below {@code position}. */
    public void replayFrom(long position) {
        dispatch.replayFrom(position);
    }

    /** The store has recovered: serve transactions, asking {@code coordinators} about prepared ones. */
    public synchronized void start(MessageStore store, ScheduledExecutorService timer,
                                   Settings settings, DeliveryOwners owners, Coordinators coordinators) {
        dispatch.finishReplay();
        consumed.serve(owners);
        for (Transaction t : table.all()) {
            consumed.hold(t.preparedAcks());
        }
        TransactionResolver resolver = new TransactionResolver(store, table, consumed);
        clients = new ClientTransactions(store, table, consumed, resolver);
        coordinatorQuery = new CoordinatorQuery(table, resolver);
        parkedSends = new ParkedSends(store, table, resolver);
        lostOwners = new LostOwners(table, resolver, () -> serving);
        serving = true;
        long period = settings.checkInterval().toMillis();
        timer.scheduleWithFixedDelay(new CheckBackScanner(table, resolver, coordinators, settings.checkAfter(),
                settings.checkInterval(), settings.maxChecks()), period, period, TimeUnit.MILLISECONDS);
    }

    /** What clients ask of their transactions; once started. */
    public synchronized ClientTransactions clients() {
        return clients;
    }

    /** What participants ask this broker as their coordinator; once started. */
    public synchronized CoordinatorQuery coordinatorQuery() {
        return coordinatorQuery;
    }

    /** Where parked sends are kept; once started. */
    public synchronized ParkedSends parkedSends() {
        return parkedSends;
    }

    /** A client session closed: its unprepared transactions roll back, unless the broker is stopping. */
    public void sessionClosed(ClientSession session) {
        LostOwners lost;
        synchronized (this) {
            lost = lostOwners;
        }
        if (lost != null) {
            lost.closed(session);
        }
    }

    /**
     * For a clean stop, once nothing is served any more: makes what prepared transactions hold
     * visible again without counting a delivery, so the last snapshot does not count one (an
     * in-flight message counts as delivered there); {@link #start} holds it again.
     */
    public void releaseHolds() {
        for (Transaction t : table.all()) {
            consumed.unhold(t.preparedAcks());
        }
    }

    /**
     * Stops rolling back the transactions of sessions that close (the broker's own stop closes
     * them all); the timer and the connections belong to the broker.
     */
    @Override
    public void close() {
        serving = false;
    }
}
