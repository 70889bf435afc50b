package io.ramjet.server.broker.transaction;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.StoreFullException;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;

/**
 * Keeps parked sends: each as a transaction of a VOTE naming its {@link ParkedOrigin} as
 * coordinator, with no owner session, then one half record, written in that order and answered
 * once the half is durable (so the vote is too). A crash between them leaves a vote without a
 * half, which the check-back leaves alone until the client's resend writes the half; a half is
 * never without its vote, so the check-back never takes a parked send for an abandoned transaction. Such a transaction is invisible to
 * consumers and survives a restart as any prepared one; the check-back asks its origin group
 * (through {@link Coordinators}) and commits it (dispatched to its queue here) or rolls it back
 * (the origin delivers its own copy). Its owner user is {@link #OWNER}, which no login is, so no
 * client can end it. One parked send per origin: a resend of one kept, or being kept, is
 * answered with the first one's outcome and stores nothing. Thread-safe.
 */
public final class ParkedSends {

    /** The owner user of every parked send's transaction: not a user name any login can have. */
    public static final String OWNER = "\u0000parked";

    private final MessageStore store;
    private final TransactionTable table;
    /** Parked sends being written, by transaction id. */
    private final Map<Long, CompletableFuture<Void>> writing = new HashMap<>();

    ParkedSends(MessageStore store, TransactionTable table) {
        this.store = store;
        this.table = table;
    }

    /**
     * Keeps the message {@code half} gives for a transaction id as a parked send from {@code origin};
     * completes once it is durable and dispatched.
     *
     * @throws BrokerException DISK_FULL when the store has no room
     */
    public CompletableFuture<Void> park(ParkedOrigin origin, LongFunction<MessageRecord> half) {
        long id = origin.transactionId();
        CompletableFuture<Void> written;
        synchronized (this) {
            CompletableFuture<Void> running = writing.get(id);
            if (running != null) {
                return running;
            }
            if (table.decisions().of(id, "").isPresent()) {
                return CompletableFuture.completedFuture(null);
            }
            Optional<Transaction> held = table.find(id, "");
            boolean voted = held.isPresent() && held.get().prepared();
            if (voted && !held.get().halves().isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            try {
                if (!voted) {
                    store.appendChain(List.of(), new DecisionChain(store.config().maxRecordSize()).vote(id, "",
                            origin.coordinator(), List.of(), OWNER), false);
                }
                written = store.append(half.apply(id), true)
                        .thenCompose(result -> store.dispatchedTo(result.endOffset()));
            } catch (StoreFullException e) {
                throw new BrokerException(Refusal.DISK_FULL, e.getMessage());
            }
            writing.put(id, written);
        }
        written.whenComplete((done, failure) -> {
            synchronized (this) {
                writing.remove(id);
            }
        });
        return written;
    }

    /** Whether transaction {@code t} is a parked send. */
    static boolean parked(Transaction t) {
        return ParkedOrigin.of(t.coordinator()).isPresent();
    }
}
