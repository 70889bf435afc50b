package io.ramjet.server.broker.transaction;

import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.TxEndRequest;
import io.ramjet.protocol.command.TxPrepareRequest;
import io.ramjet.protocol.command.TxState;
import io.ramjet.protocol.command.XaRecoverResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.StoreFullException;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * TX_PREPARE, TX_END and XA_RECOVER: the client's side of a transaction on this broker. A
 * prepare writes one durable VOTE record (acknowledgements, xid, coordinator) and is answered
 * once it is dispatched; an end goes to the {@link TransactionResolver}; recover lists the
 * prepared XA branches. Every answer comes after what it reports is durable.
 */
final class TransactionProcessor {

    private final MessageStore store;
    private final TransactionTable table;
    private final ConsumedMessages consumed;
    private final TransactionResolver resolver;

    TransactionProcessor(MessageStore store, TransactionTable table, ConsumedMessages consumed,
                         TransactionResolver resolver) {
        this.store = store;
        this.table = table;
        this.consumed = consumed;
        this.resolver = resolver;
    }

    CompletionStage<Frame> prepare(RemotingConnection connection, Frame request) throws RemotingCommandException {
        TxPrepareRequest prepare = request.header(TxPrepareRequest.class);
        long id = prepare.transactionId();
        if (id == 0) {
            throw new IllegalArgumentException("TX_PREPARE needs a transaction id");
        }
        List<AckGroup> acks = consumed.groups(prepare.acks());
        Optional<TxState> decided = table.decisions().of(id, prepare.xid());
        if (decided.isPresent() && table.find(id, "").isEmpty()) {
            if (decided.get() == TxState.ROLLED_BACK) {
                throw new RemotingCommandException(ErrorStatus.TRANSACTION_ROLLED_BACK,
                        "transaction " + id + " was rolled back on this broker");
            }
            throw new IllegalArgumentException("transaction " + id + " has already committed");
        }
        if (!prepare.xid().isEmpty()) {
            Optional<Transaction> sameXid = table.find(0, prepare.xid());
            if (sameXid.isPresent() && sameXid.get().id() != id) {
                throw new RemotingCommandException(ErrorStatus.TRANSACTION_CONFLICT,
                        "xid " + prepare.xid() + " is prepared as transaction " + sameXid.get().id());
            }
        }
        Transaction t = table.getOrCreate(id);
        if (t.status() == TransactionStatus.PREPARED) {
            return CompletableFuture.completedFuture(request.reply(null));
        }
        if (!t.claim(connection)) {
            throw new RemotingCommandException(ErrorStatus.TRANSACTION_CONFLICT,
                    "transaction " + id + " belongs to another connection");
        }
        if (!t.startPreparing()) {
            throw new IllegalArgumentException(t + " cannot be prepared now");
        }
        int notHeld = consumed.take(connection, acks);
        if (notHeld > 0) {
            t.preparingFailed();
            throw notHeld(id, notHeld);
        }
        return store.dispatchedTo(store.maxPhysicalOffset())
                .thenCompose(passed -> appendVote(t, prepare, acks))
                .thenCompose(end -> store.dispatchedTo(end))
                .handle((done, failure) -> {
                    if (failure != null) {
                        t.preparingFailed();
                        consumed.giveBack(acks);
                        throw failure instanceof CompletionException c ? c : new CompletionException(failure);
                    }
                    return request.reply(null);
                });
    }

    /** The refusal of a transaction that consumed messages it no longer holds; the client rolls it back. */
    private static RemotingCommandException notHeld(long id, int notHeld) {
        return new RemotingCommandException(ErrorStatus.TRANSACTION_ROLLED_BACK, "transaction " + id + " consumed "
                + notHeld + " message(s) no longer delivered to it (the delivery was lost with a broker restart or a"
                + " lost connection): it is rolled back, and they come back redelivered");
    }

    private CompletableFuture<Long> appendVote(Transaction t, TxPrepareRequest prepare, List<AckGroup> acks) {
        try {
            return store.append(TransactionRecordDescriptor.vote(t.id(), prepare.xid(), prepare.coordinator(), acks),
                    true).thenApply(result -> result.endOffset());
        } catch (StoreFullException e) {
            return CompletableFuture.failedFuture(new RemotingCommandException(ErrorStatus.STORE_FULL, e.getMessage()));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * A commit first takes over what the transaction consumed; if any of it is no longer
     * delivered to it, the transaction is rolled back instead and the answer says so.
     */
    CompletionStage<Frame> end(RemotingConnection connection, Frame request) throws RemotingCommandException {
        TxEndRequest end = request.header(TxEndRequest.class);
        if (end.transactionId() == 0 && end.xid().isEmpty()) {
            throw new IllegalArgumentException("TX_END needs a transaction id or an xid");
        }
        List<AckGroup> acks = consumed.groups(end.acks());
        boolean decided = table.decisions().of(end.transactionId(), end.xid()).isPresent();
        int notHeld = end.commit() && !decided ? consumed.take(connection, acks) : 0;
        if (notHeld > 0) {
            return resolver.end(end.transactionId(), end.xid(), false, acks).thenApply(done -> {
                throw new CompletionException(notHeld(end.transactionId(), notHeld));
            });
        }
        return resolver.end(end.transactionId(), end.xid(), end.commit(), acks).thenApply(done -> request.reply(null));
    }

    Frame recover(RemotingConnection connection, Frame request) {
        return request.reply(new XaRecoverResponse(table.preparedXids()));
    }
}
