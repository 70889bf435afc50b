package io.ramjet.server.broker.transaction;

import io.ramjet.protocol.command.TxState;
import io.ramjet.protocol.record.MessageRecord;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.record.Half;
import io.ramjet.server.broker.record.TransactionRecordDescriptor;
import io.ramjet.storage.AppendResult;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.QueueSlot;
import io.ramjet.storage.RecordChain;
import io.ramjet.storage.StoreFullException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Ends transactions: writes the COMMIT (one record, or a {@link DecisionChain} of parts and the
 * COMMIT naming them for a transaction too large for one) or the ROLLBACK, and completes once it is durable
 * and dispatched (so its effects are in memory and its decision remembered). Every end goes
 * through here, whether a client's TX_END, a check-back's answer, a lost owner or a
 * coordinator's presumed abort, and one transaction has at most one end in progress: a second
 * end waits for the first and fails if it asked for the other outcome. Thread-safe.
 */
final class TransactionResolver {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionResolver.class);

    /** For {@link #end}: commit whatever halves the transaction holds. */
    static final int ANY_HALVES = -1;

    private final MessageStore store;
    private final TransactionTable table;
    private final ConsumedMessages consumed;

    TransactionResolver(MessageStore store, TransactionTable table, ConsumedMessages consumed) {
        this.store = store;
        this.table = table;
        this.consumed = consumed;
    }

    /**
     * Ends a transaction as decided, adding {@code acks} to what it consumed: for a commit, the
     * messages the transaction has taken over (given back to their consumers if the decision
     * cannot be written).
     *
     * @throws BrokerException TX_ROLLED_BACK for a commit of one rolled back here, TX_UNKNOWN
     *         for an xid alone whose branch is not open here ({@link ForgottenBranches}),
     *         BAD_REQUEST for a rollback of one committed here (the future fails with the same
     *         when it is found out later)
     */
    CompletableFuture<Void> end(long id, String xid, boolean commit, List<AckGroup> acks) {
        return end(id, xid, commit, acks, ANY_HALVES);
    }

    /**
     * As {@link #end(long, String, boolean, List)}; a commit with {@code halves} other than
     * {@link #ANY_HALVES} rolls back instead, and fails TX_ROLLED_BACK, unless the transaction
     * holds exactly that many half records once every record written before this call is
     * dispatched (a send of it that was refused, or is not here yet, leaves fewer).
     */
    CompletableFuture<Void> end(long id, String xid, boolean commit, List<AckGroup> acks, int halves) {
        return end(id, xid, commit, acks, halves, false);
    }

    /**
     * As {@link #end(long, String, boolean, List, int)}; with {@code callerForces}, for a caller
     * on a thread that forces the CommitLog once it has processed what is at hand (a send lane's,
     * see {@link MessageStore#forceWaiting}): a decision written on this thread (its halves already
     * dispatched) is left to that force, so the flush thread is not woken for it, and its
     * dispatch, which follows the written log, is usually done by the time the force is.
     */
    CompletableFuture<Void> end(long id, String xid, boolean commit, List<AckGroup> acks, int halves,
                                boolean callerForces) {
        TxState wanted = commit ? TxState.COMMITTED : TxState.ROLLED_BACK;
        Optional<Transaction> found = table.find(id, xid);
        if (found.isEmpty()) {
            Optional<TxState> decided = table.decisions().of(id, xid);
            if (id == 0) {
                throw ForgottenBranches.unknown(xid, decided);
            }
            if (decided.isPresent()) {
                check(id, wanted, decided.get());
                if (!commit) {
                    consumed.release(acks);
                }
                return CompletableFuture.completedFuture(null);
            }
        }
        Transaction t = found.orElseGet(() -> table.getOrCreate(id));
        CompletableFuture<TxState> mine = new CompletableFuture<>();
        CompletableFuture<TxState> running = t.startEnding(mine);
        if (running != null) {
            return running.thenApply(state -> {
                check(t.id(), wanted, state);
                return null;
            });
        }
        // records written before this end (a half still on its way to the dispatcher) belong to it;
        // the decision is written on this thread when they are dispatched already, else on the
        // dispatcher's as it passes them (one append: short enough for its callbacks), no hop between
        CompletableFuture<Void> passed = store.dispatchedTo(store.maxPhysicalOffset());
        boolean forcedHere = callerForces && passed.isDone();
        CompletableFuture<TxState> decided = passed.thenApply(p -> decision(t, wanted, halves));
        decided.thenCompose(decision -> write(t, decision, acks, forcedHere))
                .thenCompose(end -> store.dispatchedTo(end))
                .whenComplete((done, failure) -> {
                    TxState decision = decided.getNow(wanted);
                    if (failure == null) {
                        if (decision == TxState.ROLLED_BACK) {
                            consumed.release(acks);
                        }
                        mine.complete(decision);
                    } else {
                        LOG.error("{} of {} failed", commit ? "commit" : "rollback", t, failure);
                        if (commit) {
                            consumed.giveBack(acks);
                        }
                        t.endingFailed();
                        table.forgetIfEmpty(t);
                        mine.completeExceptionally(failure);
                    }
                });
        return mine.thenApply(state -> {
            check(t.id(), wanted, state);
            return null;
        });
    }

    /** What to write: the wanted outcome, or a rollback for a commit that does not hold the halves counted. */
    private static TxState decision(Transaction t, TxState wanted, int halves) {
        if (wanted != TxState.COMMITTED || halves == ANY_HALVES) {
            return wanted;
        }
        int held = t.halves().size();
        if (held == halves) {
            return wanted;
        }
        LOG.info("{}: the commit counted {} half record(s), {} here: rolled back", t, halves, held);
        return TxState.ROLLED_BACK;
    }

    /** Writes the decision, unless one was dispatched meanwhile (a concurrent end of a transaction with no trace). */
    private CompletableFuture<Long> write(Transaction t, TxState wanted, List<AckGroup> acks, boolean forcedHere) {
        Optional<TxState> decided = table.decisions().of(t.id(), t.xid());
        if (decided.isPresent()) {
            try {
                check(t.id(), wanted, decided.get());
                return CompletableFuture.completedFuture(0L);
            } catch (BrokerException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return wanted == TxState.COMMITTED ? writeCommit(t, acks, forcedHere) : writeRollback(t, forcedHere);
    }

    private static void check(long id, TxState wanted, TxState decided) {
        if (decided == wanted) {
            return;
        }
        if (decided == TxState.ROLLED_BACK) {
            throw new BrokerException(Refusal.TX_ROLLED_BACK, "transaction " + id + " was rolled back on this broker");
        }
        throw new BrokerException(Refusal.BAD_REQUEST, "transaction " + id + " has already committed");
    }

    /** Writes the COMMIT, as a chain if need be; returns the offset just past it. */
    private CompletableFuture<Long> writeCommit(Transaction t, List<AckGroup> acks, boolean forcedHere) {
        long now = System.currentTimeMillis();
        List<Half> visible = new ArrayList<>();
        List<Half> delayed = new ArrayList<>();
        for (Half h : t.halves()) {
            if (h.expired(now)) {
                LOG.debug("{}: half at {} expired before the commit, dropped", t, h.physicalOffset());
            } else if (h.delayed(now)) {
                delayed.add(h);
            } else {
                visible.add(h);
            }
        }
        List<AckGroup> all = new ArrayList<>(t.preparedAcks());
        all.addAll(acks);
        List<QueueSlot> slots = visible.stream().map(h -> new QueueSlot(h.destination(), h.queueId())).toList();
        RecordChain commit = new DecisionChain(store.config().maxRecordSize()).commit(t.id(), t.xid(), visible, delayed,
                AckGroup.toRecords(all));
        return append(() -> forcedHere ? store.appendForcedAtForce(slots, commit)
                : store.appendChain(slots, commit, true));
    }

    private CompletableFuture<Long> writeRollback(Transaction t, boolean forcedHere) {
        MessageRecord rollback = TransactionRecordDescriptor.rollback(t.id(), t.xid());
        return append(() -> forcedHere ? store.appendForcedAtForce(rollback) : store.append(rollback, true));
    }

    /** Appends; completes once durable (forced by the flush thread, or by this thread's next force). */
    private CompletableFuture<Long> append(Supplier<CompletableFuture<AppendResult>> append) {
        try {
            return append.get().thenApply(AppendResult::endOffset);
        } catch (StoreFullException e) {
            return CompletableFuture.failedFuture(new BrokerException(Refusal.DISK_FULL, e.getMessage()));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
