package io.ramjet.server.broker.transaction;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.record.MessageRecord;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.record.Half;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.StoreFullException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Comparator;
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
 * answered with the first one's outcome and stores nothing. For an origin group gone for good an
 * operator lists them ({@link #held}) and decides them ({@link #resolve}) through the same
 * {@link TransactionResolver} as the check-back. Thread-safe.
 */
public final class ParkedSends {

    private static final Logger LOG = LoggerFactory.getLogger(ParkedSends.class);

    /**
     * A parked send held here, for an operator.
     *
     * @param kind        the kind of its destination, null while only its vote is here
     * @param destination where it is to be delivered, null while only its vote is here
     * @param since       when it first left a trace here, epoch ms
     */
    public record Held(ParkedOrigin origin, long transactionId, DestinationKind kind, String destination, long since) {
    }

    /** The owner user of every parked send's transaction: not a user name any login can have. */
    public static final String OWNER = "\u0000parked";

    private final MessageStore store;
    private final TransactionTable table;
    private final TransactionResolver resolver;
    /** Parked sends being written, by transaction id. */
    private final Map<Long, CompletableFuture<Void>> writing = new HashMap<>();

    ParkedSends(MessageStore store, TransactionTable table, TransactionResolver resolver) {
        this.store = store;
        this.table = table;
        this.resolver = resolver;
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

    /** The parked sends held here, oldest first. */
    public List<Held> held() {
        return table.all().stream()
                .filter(ParkedSends::parked)
                .sorted(Comparator.comparingLong(Transaction::since))
                .map(t -> {
                    List<Half> halves = t.halves();
                    String stored = halves.isEmpty() ? null : halves.get(0).destination();
                    return new Held(ParkedOrigin.of(t.coordinator()).orElseThrow(), t.id(),
                            stored == null ? null : Destination.kindOf(stored),
                            stored == null ? null : Destination.nameOf(stored), t.since());
                })
                .toList();
    }

    /**
     * An operator's decision for every parked send of origin group {@code group} held here: a
     * commit delivers each as the group's answer "not held" would, a rollback drops each as "held"
     * would. One whose message has not arrived (a vote alone) is left for its resend, since a
     * decision now would decide nothing and turn the resend away. Completes with how many were
     * decided once every decision is durable; fails when one was decided otherwise meanwhile.
     */
    public CompletableFuture<Integer> resolve(String group, boolean commit) {
        List<Transaction> chosen = table.all().stream()
                .filter(t -> ParkedOrigin.of(t.coordinator()).filter(o -> o.group().equals(group)).isPresent())
                .filter(t -> !t.halves().isEmpty())
                .toList();
        CompletableFuture<?>[] ends = new CompletableFuture<?>[chosen.size()];
        for (int i = 0; i < ends.length; i++) {
            Transaction t = chosen.get(i);
            LOG.info("{}: an operator decides {} for its origin group {}", t, commit ? "commit" : "rollback", group);
            try {
                ends[i] = resolver.end(t.id(), "", commit, List.of());
            } catch (RuntimeException e) {
                ends[i] = CompletableFuture.failedFuture(e);
            }
        }
        return CompletableFuture.allOf(ends).thenApply(done -> ends.length);
    }

    /** Whether transaction {@code t} is a parked send. */
    static boolean parked(Transaction t) {
        return ParkedOrigin.of(t.coordinator()).isPresent();
    }
}
