package io.ramjet.server.broker.transaction;

import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.TxEndRequest;
import io.ramjet.protocol.command.TxPrepareRequest;
import io.ramjet.protocol.command.TxState;
import io.ramjet.protocol.command.XaRecoverResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.DispatchProgress;
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
    private final DispatchProgress progress;

    TransactionProcessor(MessageStore store, TransactionTable table, ConsumedMessages consumed,
                         TransactionResolver resolver, DispatchProgress progress) {
        this.store = store;
        this.table = table;
        this.consumed = consumed;
        this.resolver = resolver;
        this.progress = progress;
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
        return progress.passed(store.maxPhysicalOffset())
                .thenCompose(passed -> appendVote(t, prepare, acks))
                .thenCompose(end -> progress.passed(end))
                .handle((done, failure) -> {
                    if (failure != null) {
                        t.preparingFailed();
                        throw failure instanceof CompletionException c ? c : new CompletionException(failure);
                    }
                    return request.reply(null);
                });
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

    CompletionStage<Frame> end(RemotingConnection connection, Frame request) throws RemotingCommandException {
        TxEndRequest end = request.header(TxEndRequest.class);
        if (end.transactionId() == 0 && end.xid().isEmpty()) {
            throw new IllegalArgumentException("TX_END needs a transaction id or an xid");
        }
        return resolver.end(end.transactionId(), end.xid(), end.commit(), consumed.groups(end.acks()))
                .thenApply(done -> request.reply(null));
    }

    Frame recover(RemotingConnection connection, Frame request) {
        return request.reply(new XaRecoverResponse(table.preparedXids()));
    }
}
