package io.ramjet.server.broker.transaction;

import io.ramjet.protocol.command.TxQueryRequest;
import io.ramjet.protocol.command.TxState;
import io.ramjet.protocol.command.TxStateResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnection;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * TX_QUERY, the coordinator's side: a participant whose owner is gone asks what was decided.
 * A recorded decision is the answer; a transaction still ending, or whose owner is still
 * connected here, is OPEN; anything else is presumed aborted: the rollback is written first,
 * so a late commit of it is refused, then ROLLED_BACK is the answer.
 */
final class CoordinatorQuery {

    private final TransactionTable table;
    private final TransactionResolver resolver;

    CoordinatorQuery(TransactionTable table, TransactionResolver resolver) {
        this.table = table;
        this.resolver = resolver;
    }

    CompletionStage<Frame> query(RemotingConnection connection, Frame request) throws RemotingCommandException {
        long id = request.header(TxQueryRequest.class).transactionId();
        if (id == 0) {
            throw new IllegalArgumentException("TX_QUERY needs a transaction id");
        }
        return state(id).thenApply(state -> request.reply(new TxStateResponse(id, state)));
    }

    private CompletableFuture<TxState> state(long id) throws RemotingCommandException {
        Optional<TxState> decided = table.decisions().of(id, "");
        if (decided.isPresent()) {
            return CompletableFuture.completedFuture(decided.get());
        }
        Optional<Transaction> held = table.find(id, "");
        if (held.isPresent()) {
            Transaction t = held.get();
            TransactionStatus status = t.status();
            if (status == TransactionStatus.ENDING || status == TransactionStatus.PREPARING || t.ownerAlive()
                    || t.preparedBranch()) {
                return CompletableFuture.completedFuture(TxState.OPEN);
            }
        }
        return resolver.end(id, "", false, List.of()).handle((done, failure) -> {
            if (failure == null) {
                return TxState.ROLLED_BACK;
            }
            return table.decisions().of(id, "").orElse(TxState.OPEN);
        });
    }
}
