package io.ramjet.server.broker.transaction;

import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingServer;
import io.ramjet.server.broker.timer.DelayedMessages;
import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.storage.MessageStore;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A broker's transactions: half-message two-phase commit with check-back. Before the store
 * opens it offers the {@link #table()} to the snapshot and the {@link #dispatch()} to the
 * dispatch listener; once the store has recovered, {@link #start} holds again what prepared
 * transactions consumed, registers TX_PREPARE, TX_END, TX_QUERY and XA_RECOVER, rolls back the
 * transactions of connections that close and schedules the {@link CheckBackScanner}.
 */
public final class Transactions implements AutoCloseable {

    /** The check-back settings. */
    public record Settings(Duration checkAfter, Duration checkInterval, int maxChecks) {
    }

    private final TransactionTable table = new TransactionTable();
    private final ConsumedMessages consumed;
    private final TransactionDispatch dispatch;
    private volatile RemotingClient coordinators;

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

    /** The store has recovered: serve transactions on {@code server}. */
    public synchronized void start(MessageStore store, RemotingServer server,
                                   ExecutorService processors, ScheduledExecutorService timer, Settings settings,
                                   DeliveryOwners owners) {
        dispatch.finishReplay();
        consumed.serve(owners);
        for (Transaction t : table.all()) {
            consumed.hold(t.preparedAcks());
        }
        TransactionResolver resolver = new TransactionResolver(store, table, consumed, processors);
        TransactionProcessor processor = new TransactionProcessor(store, table, consumed, resolver);
        server.registerAsyncProcessor(CommandCode.TX_PREPARE, processor::prepare, processors);
        server.registerAsyncProcessor(CommandCode.TX_END, processor::end, processors);
        server.registerProcessor(CommandCode.XA_RECOVER, processor::recover, processors);
        server.registerAsyncProcessor(CommandCode.TX_QUERY, new CoordinatorQuery(table, resolver)::query, processors);
        server.addConnectionListener(new LostOwners(table, resolver, () -> coordinators != null));
        coordinators = new RemotingClient(RemotingClientConfig.defaults());
        long period = settings.checkInterval().toMillis();
        timer.scheduleWithFixedDelay(new CheckBackScanner(table, resolver, coordinators, settings.checkAfter(),
                settings.checkInterval(), settings.maxChecks()), period, period, TimeUnit.MILLISECONDS);
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
     * Stops rolling back the transactions of connections that close (the broker's own stop
     * closes them all) and closes the connections to coordinators; the timer and server belong
     * to the broker.
     */
    @Override
    public synchronized void close() {
        if (coordinators != null) {
            coordinators.close();
            coordinators = null;
        }
    }
}
