package io.ramjet.server.broker.transaction;

import io.ramjet.model.TxState;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.session.ClientSession;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.StoreFullException;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * What a client asks of its transactions on this broker: prepare, end, and the list of prepared
 * XA branches. A prepare writes one durable VOTE record (acknowledgements, xid, coordinator; a
 * {@link DecisionChain} when its acknowledgements do not fit one record) and
 * completes once it is dispatched; an end goes to the {@link TransactionResolver}. Every future
 * completes after what it reports is durable. A local transaction's commit is refused at once
 * (TOO_FEW_REPLICAS) while the in-sync set is below its minimum. Refusals are
 * {@link BrokerException}s, thrown or failing the future. Thread-safe.
 */
public final class ClientTransactions {

    private final MessageStore store;
    private final TransactionTable table;
    private final ConsumedMessages consumed;
    private final TransactionResolver resolver;

    ClientTransactions(MessageStore store, TransactionTable table, ConsumedMessages consumed,
                         TransactionResolver resolver) {
        this.store = store;
        this.table = table;
        this.consumed = consumed;
        this.resolver = resolver;
    }

    /**
     * Prepares transaction {@code id} of {@code session}, under {@code xid} for an XA branch,
     * with {@code coordinator} to ask if its owner is lost.
     *
     * @throws BrokerException BAD_REQUEST without an id, for one committed or not preparable
     *         now; TX_ROLLED_BACK for one rolled back here or whose messages are no longer held;
     *         TX_CONFLICT when the xid or the transaction belongs to another
     */
    public CompletableFuture<Void> prepare(ClientSession session, long id, String xid, String coordinator,
                                           List<AckGroup> consumedAcks) {
        if (id == 0) {
            throw new BrokerException(Refusal.BAD_REQUEST, "TX_PREPARE needs a transaction id");
        }
        List<AckGroup> named = consumed.present(consumedAcks);
        consumed.seen(session, named);
        Optional<TxState> decided = table.decisions().of(id, xid);
        if (decided.isPresent() && table.find(id, "").isEmpty()) {
            if (decided.get() == TxState.ROLLED_BACK) {
                throw new BrokerException(Refusal.TX_ROLLED_BACK,
                        "transaction " + id + " was rolled back on this broker");
            }
            throw new BrokerException(Refusal.BAD_REQUEST, "transaction " + id + " has already committed");
        }
        if (!xid.isEmpty()) {
            Optional<Transaction> sameXid = table.find(0, xid);
            if (sameXid.isPresent() && sameXid.get().id() != id) {
                throw new BrokerException(Refusal.TX_CONFLICT,
                        "xid " + xid + " is prepared as transaction " + sameXid.get().id());
            }
        }
        Transaction t = table.getOrCreate(id);
        if (t.status() == TransactionStatus.PREPARED) {
            return CompletableFuture.completedFuture(null);
        }
        if (!t.claim(session)) {
            throw new BrokerException(Refusal.TX_CONFLICT,
                    "transaction " + id + " belongs to another user");
        }
        if (!t.startPreparing()) {
            throw new BrokerException(Refusal.BAD_REQUEST, t + " cannot be prepared now");
        }
        List<AckGroup> acks = withAhead(t, named);
        int notHeld = consumed.take(session, acks);
        if (notHeld > 0) {
            t.preparingFailed();
            throw notHeld(id, notHeld);
        }
        CompletableFuture<Void> passed = store.replicatedAndDispatchedTo(store.maxPhysicalOffset());
        return passed
                .thenCompose(before -> appendVote(t, xid, coordinator, acks))
                .thenCompose(end -> store.dispatchedTo(end))
                .handle((done, failure) -> {
                    if (failure != null) {
                        t.preparingFailed();
                        consumed.giveBack(acks);
                        Throwable reported = passed.isCompletedExceptionally()
                                ? TransactionResolver.beforeWriting(id, "prepared", failure) : failure;
                        throw reported instanceof CompletionException c ? c : new CompletionException(reported);
                    }
                    return null;
                });
    }

    /**
     * Holds {@code consumedAcks} with open transaction {@code id} of {@code session}, to be added
     * to what its next prepare or end names (TX_ACKS: a transaction that consumed more than one
     * frame holds). Nothing is written: a transaction that never gets its decision acknowledges
     * none of it.
     *
     * @throws BrokerException BAD_REQUEST without an id, for one decided already or not open;
     *         TX_CONFLICT when it belongs to another user
     */
    public void consumedAhead(ClientSession session, long id, List<AckGroup> consumedAcks) {
        if (id == 0) {
            throw new BrokerException(Refusal.BAD_REQUEST, "TX_ACKS needs a transaction id");
        }
        List<AckGroup> acks = consumed.present(consumedAcks);
        if (table.find(id, "").isEmpty() && table.decisions().of(id, "").isPresent()) {
            throw new BrokerException(Refusal.BAD_REQUEST, "transaction " + id + " has ended already");
        }
        Transaction t = table.getOrCreate(id);
        if (!t.claim(session)) {
            table.forgetIfEmpty(t);
            throw new BrokerException(Refusal.TX_CONFLICT, "transaction " + id + " belongs to another user");
        }
        consumed.seen(session, acks);
        if (!t.consumedAhead(acks)) {
            throw new BrokerException(Refusal.BAD_REQUEST, t + " takes no more acknowledgements");
        }
    }

    /** What was sent ahead for {@code t} followed by {@code named}: what its prepare or end stands for. */
    private List<AckGroup> withAhead(Transaction t, List<AckGroup> named) {
        List<AckGroup> ahead = t.takeConsumedAhead();
        if (ahead.isEmpty()) {
            return named;
        }
        List<AckGroup> all = new ArrayList<>(consumed.present(ahead));
        all.addAll(named);
        return all;
    }

    /**
     * A local transaction's commit is refused, nothing of it written, while the in-sync set is
     * below its minimum: written, its decision could not be answered (it would wait for the
     * replication timeout and fail with its outcome unknown, yet apply once the set is whole
     * again). The client asks again for a while, then rolls the transaction back.
     */
    private void refuseWhileTooFewReplicas(long id) {
        Optional<String> shortfall = store.replicationShortfall();
        if (shortfall.isPresent()) {
            throw new BrokerException(Refusal.TOO_FEW_REPLICAS, "transaction " + id
                    + " not committed, nothing of it written: " + shortfall.get());
        }
    }

    /** The refusal of a transaction that consumed messages it no longer holds; the client rolls it back. */
    private static BrokerException notHeld(long id, int notHeld) {
        return new BrokerException(Refusal.TX_ROLLED_BACK, "transaction " + id + " consumed "
                + notHeld + " message(s) no longer delivered to it (the delivery was lost with a broker restart or a"
                + " lost connection): it is rolled back, and they come back redelivered");
    }

    private CompletableFuture<Long> appendVote(Transaction t, String xid, String coordinator, List<AckGroup> acks) {
        try {
            return store.appendChain(List.of(), new DecisionChain(store.config().maxRecordSize()).vote(t.id(), xid,
                    coordinator, AckGroup.toRecords(acks), t.ownerUser()), true).thenApply(result -> result.endOffset());
        } catch (StoreFullException e) {
            return CompletableFuture.failedFuture(new BrokerException(Refusal.DISK_FULL, e.getMessage()));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Ends transaction {@code id} (or the branch {@code xid}) of {@code session}. A commit first
     * takes over what the transaction consumed; if any of it is no longer delivered to it, the
     * transaction is rolled back instead and the future fails TX_ROLLED_BACK.
     *
     * @throws BrokerException BAD_REQUEST with neither id nor xid; TOO_FEW_REPLICAS for a local
     *         commit while the in-sync set is below its minimum; as {@link TransactionResolver#end}
     */
    public CompletableFuture<Void> end(ClientSession session, long id, String xid, boolean commit,
                                       List<AckGroup> consumedAcks) {
        return end(session, id, xid, commit, consumedAcks, TransactionResolver.ANY_HALVES);
    }

    private CompletableFuture<Void> end(ClientSession session, long id, String xid, boolean commit,
                                        List<AckGroup> consumedAcks, int halves) {
        if (id == 0 && xid.isEmpty()) {
            throw new BrokerException(Refusal.BAD_REQUEST, "TX_END needs a transaction id or an xid");
        }
        List<AckGroup> named = consumed.present(consumedAcks);
        consumed.seen(session, named);
        Optional<Transaction> held = table.find(id, xid);
        List<AckGroup> acks = held.isPresent() ? withAhead(held.get(), named) : named;
        boolean decided = table.decisions().of(id, xid).isPresent();
        if (commit && xid.isEmpty() && !decided) {
            refuseWhileTooFewReplicas(id);
        }
        int notHeld = commit && !decided ? consumed.take(session, acks) : 0;
        if (notHeld > 0) {
            return resolver.end(id, xid, false, acks).thenApply(done -> {
                throw notHeld(id, notHeld);
            });
        }
        return resolver.end(id, xid, commit, acks, halves);
    }

    /**
     * Commits local transaction {@code id} of {@code session} if this broker holds exactly
     * {@code halves} of its half records, else rolls it back and fails TX_ROLLED_BACK; as
     * {@link #end} otherwise. Called on a send lane, after the connection's earlier sends.
     *
     * @throws BrokerException BAD_REQUEST without an id
     */
    public CompletableFuture<Void> commitCounted(ClientSession session, long id, int halves,
                                                 List<AckGroup> consumedAcks) {
        if (id == 0) {
            throw new BrokerException(Refusal.BAD_REQUEST, "TX_COMMIT_COUNTED needs a transaction id");
        }
        return end(session, id, "", true, consumedAcks, halves);
    }

    /** The prepared XA branches. */
    public List<Transaction> preparedBranches() {
        return table.preparedBranches();
    }

    /** The transaction of that id (when not 0), else the one prepared under {@code xid}, if held here. */
    public Optional<Transaction> held(long id, String xid) {
        return table.find(id, xid);
    }
}
