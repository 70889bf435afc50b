package io.ramjet.server.broker.transaction;

import io.ramjet.model.TxState;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The coordinator's side of a participant's query: a participant whose owner is gone asks what was decided.
 * A recorded decision is the answer; a transaction still ending, or whose owner is still
 * connected here, or a parked send (its origin group decides it), is OPEN; anything else is presumed aborted: the rollback is written first,
 * so a late commit of it is refused, then ROLLED_BACK is the answer.
 */
public final class CoordinatorQuery {

    private final TransactionTable table;
    private final TransactionResolver resolver;

    CoordinatorQuery(TransactionTable table, TransactionResolver resolver) {
        this.table = table;
        this.resolver = resolver;
    }

    /**
     * What was decided for transaction {@code id}, deciding a rollback if nobody can decide any more.
     *
     * @throws BrokerException BAD_REQUEST for id 0
     */
    public CompletableFuture<TxState> state(long id) {
        if (id == 0) {
            throw new BrokerException(Refusal.BAD_REQUEST, "TX_QUERY needs a transaction id");
        }
        Optional<TxState> decided = table.decisions().of(id, "");
        if (decided.isPresent()) {
            return CompletableFuture.completedFuture(decided.get());
        }
        Optional<Transaction> held = table.find(id, "");
        if (held.isPresent()) {
            Transaction t = held.get();
            TransactionStatus status = t.status();
            if (status == TransactionStatus.ENDING || status == TransactionStatus.PREPARING || t.ownerAlive()
                    || t.preparedBranch() || ParkedSends.parked(t)) {
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
