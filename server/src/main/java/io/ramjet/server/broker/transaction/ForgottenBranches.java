package io.ramjet.server.broker.transaction;

import io.ramjet.model.TxState;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;

import java.util.Optional;

/**
 * The XA rule for an end that names a branch by its Xid alone (a transaction manager completing
 * a branch through a resource that does not hold it, as after recovery): a branch that was
 * decided is forgotten, as JTA's heuristic-free completion says, so a second commit or rollback
 * of it, or a commit of one rolled back, is XAER_NOTA (an unknown Xid), as for a Xid never seen
 * (Artemis answers the same). The decision itself is still remembered ({@link DecisionMemory}, a
 * replicated COMMIT or ROLLBACK record, so a new master answers alike) for an end that names the
 * transaction id: the client's own repeat of an end whose answer was lost.
 */
final class ForgottenBranches {

    private ForgottenBranches() {
    }

    /** The refusal of an end by Xid alone of a branch that has no transaction here, decided or never seen. */
    static BrokerException unknown(String xid, Optional<TxState> decided) {
        return new BrokerException(Refusal.TX_UNKNOWN, decided
                .map(state -> "transaction branch " + xid + " was " + (state == TxState.COMMITTED ? "committed"
                        : "rolled back") + " and is forgotten")
                .orElse("no transaction branch " + xid));
    }
}
