package io.ramjet.server.broker.transaction;

import io.ramjet.model.TxState;
import io.ramjet.model.record.MessageRecord;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.record.Half;
import io.ramjet.server.broker.record.TransactionRecordDescriptor;
import io.ramjet.storage.AppendResult;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.NotReplicatedException;
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
 * end waits for the first and fails if it asked for the other outcome.
 *
 * <p>Every wait is bounded. Before it writes the decision, an end waits for the records written
 * before it (a half on its way) to be dispatched, and under synchronous replication a record is
 * dispatched only once the in-sync set holds it: that wait fails after the replication timeout,
 * as a durable append does, and the end then fails TOO_FEW_REPLICAS with nothing written, the
 * transaction left as it was (a client may end it again; a check-back ends it later). Thread-safe.
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
        // dispatcher's as it passes them (one append: short enough for its callbacks), no hop between;
        // who forces for it is the store's decision (on a send lane, the lane's batch end)
        CompletableFuture<Void> passed = store.replicatedAndDispatchedTo(store.maxPhysicalOffset());
        CompletableFuture<TxState> decided = passed.thenApply(p -> decision(t, wanted, halves));
        decided.thenCompose(decision -> write(t, decision, acks))
                .thenCompose(end -> store.dispatchedTo(end))
                .whenComplete((done, failure) -> {
                    if (failure == null) {
                        TxState decision = decided.getNow(wanted);
                        if (decision == TxState.ROLLED_BACK) {
                            consumed.release(acks);
                        }
                        mine.complete(decision);
                    } else {
                        Throwable reported = passed.isCompletedExceptionally()
                                ? beforeWriting(t.id(), commit ? "committed" : "rolled back", failure) : failure;
                        if (reported instanceof BrokerException) {
                            LOG.warn("{}: {}", t, reported.getMessage());
                        } else {
                            LOG.error("{} of {} failed", commit ? "commit" : "rollback", t, failure);
                        }
                        if (commit) {
                            consumed.giveBack(acks);
                        }
                        t.endingFailed();
                        table.forgetIfEmpty(t);
                        mine.completeExceptionally(reported);
                    }
                });
        return mine.thenApply(state -> {
            check(t.id(), wanted, state);
            return null;
        });
    }

    /**
     * The failure of a wait that came before anything of transaction {@code id} was written, as
     * its answer: a TOO_FEW_REPLICAS refusal when the records before it were not replicated in
     * time, else the failure itself.
     */
    static Throwable beforeWriting(long id, String notDone, Throwable failure) {
        Throwable cause = failure;
        while (cause != null && !(cause instanceof NotReplicatedException)) {
            cause = cause.getCause();
        }
        if (cause == null) {
            return failure;
        }
        return new BrokerException(Refusal.TOO_FEW_REPLICAS, "transaction " + id + " not " + notDone
                + ", nothing of it written: the records before it are " + cause.getMessage());
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
    private CompletableFuture<Long> write(Transaction t, TxState wanted, List<AckGroup> acks) {
        Optional<TxState> decided = table.decisions().of(t.id(), t.xid());
        if (decided.isPresent()) {
            try {
                check(t.id(), wanted, decided.get());
                return CompletableFuture.completedFuture(0L);
            } catch (BrokerException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return wanted == TxState.COMMITTED ? writeCommit(t, acks) : writeRollback(t);
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
    private CompletableFuture<Long> writeCommit(Transaction t, List<AckGroup> acks) {
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
        return append(() -> store.appendChain(slots, commit, true));
    }

    private CompletableFuture<Long> writeRollback(Transaction t) {
        MessageRecord rollback = TransactionRecordDescriptor.rollback(t.id(), t.xid());
        return append(() -> store.append(rollback, true));
    }

    /** Appends; completes once durable (forced by the flush thread, or at the end of this thread's lane batch). */
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
