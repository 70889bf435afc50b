package io.ramjet.server.broker.processor;

import io.ramjet.protocol.command.TxAcksRequest;
import io.ramjet.protocol.command.TxCommitCountedRequest;
import io.ramjet.protocol.command.TxEndRequest;
import io.ramjet.protocol.command.TxPrepareRequest;
import io.ramjet.protocol.command.TxQueryRequest;
import io.ramjet.protocol.command.TxStateResponse;
import io.ramjet.protocol.command.XaRecoverResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.transaction.ClientTransactions;
import io.ramjet.server.broker.transaction.CoordinatorQuery;
import io.ramjet.server.broker.transaction.Transaction;
import java.util.concurrent.CompletionStage;

/**
 * TX_ACKS, TX_PREPARE, TX_END, TX_COMMIT_COUNTED, XA_RECOVER and TX_QUERY: reads the request, asks the transaction domain
 * ({@link ClientTransactions}, {@link CoordinatorQuery}) and answers once it has done so. A transaction is listed,
 * ended and asked about only as {@link TransactionOwnership} allows; sending in it and preparing it only its owner
 * user may, and so adding to what it consumed (TX_ACKS) ({@link ClientTransactions}).
 */
public final class TransactionProcessor {

    private final ClientTransactions transactions;
    private final CoordinatorQuery coordinatorQuery;
    private final TransactionOwnership ownership;

    /** @param clusterUser the user brokers authenticate as to each other (TX_QUERY), or null */
    public TransactionProcessor(ClientTransactions transactions, CoordinatorQuery coordinatorQuery, Access access) {
        this.transactions = transactions;
        this.coordinatorQuery = coordinatorQuery;
        this.ownership = new TransactionOwnership(access);
    }

    public CompletionStage<Frame> prepare(RemotingConnection connection, Frame request) {
        TxPrepareRequest prepare = request.header(TxPrepareRequest.class);
        return transactions.prepare(new ConnectionSession(connection), prepare.transactionId(), prepare.xid(),
                prepare.coordinator(), SubscriptionRefs.ackGroups(prepare.acks())).thenApply(done -> request.reply(null));
    }

    /** Part of what an open transaction consumed, held with it until its prepare or end. */
    public Frame acks(RemotingConnection connection, Frame request) {
        TxAcksRequest acks = request.header(TxAcksRequest.class);
        transactions.consumedAhead(new ConnectionSession(connection), acks.transactionId(),
                SubscriptionRefs.ackGroups(acks.acks()));
        return request.reply(null);
    }

    public CompletionStage<Frame> end(RemotingConnection connection, Frame request) {
        TxEndRequest end = request.header(TxEndRequest.class);
        ownership.checkComplete(connection, transactions.held(end.transactionId(), end.xid()));
        return transactions.end(new ConnectionSession(connection), end.transactionId(), end.xid(), end.commit(),
                SubscriptionRefs.ackGroups(end.acks())).thenApply(done -> request.reply(null));
    }

    /** Runs on the thread that runs SEND, so the connection's earlier sends are appended before it. */
    public CompletionStage<Frame> commitCounted(RemotingConnection connection, Frame request) {
        TxCommitCountedRequest commit = request.header(TxCommitCountedRequest.class);
        ownership.checkComplete(connection, transactions.held(commit.transactionId(), ""));
        return transactions.commitCounted(new ConnectionSession(connection), commit.transactionId(), commit.halves(),
                SubscriptionRefs.ackGroups(commit.acks())).thenApply(done -> request.reply(null));
    }

    /** The prepared XA branches the connection may complete. */
    public Frame recover(RemotingConnection connection, Frame request) {
        return request.reply(new XaRecoverResponse(transactions.preparedBranches().stream()
                .filter(t -> ownership.mayComplete(connection, t)).map(Transaction::xid).toList()));
    }

    /**
     * A participant whose owner is gone asks this broker, its coordinator, what was decided. Only
     * cluster members reach it (the broker checks that where it registers the command).
     */
    public CompletionStage<Frame> query(RemotingConnection connection, Frame request) {
        long id = request.header(TxQueryRequest.class).transactionId();
        return coordinatorQuery.state(id).thenApply(state -> request.reply(new TxStateResponse(id, state)));
    }
}
