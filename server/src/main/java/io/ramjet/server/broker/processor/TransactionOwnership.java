package io.ramjet.server.broker.processor;

import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.security.Operation;
import io.ramjet.server.broker.transaction.Transaction;

import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may see and complete a transaction taken by id or xid from the wire. Its owner user (the
 * user that sent in it or prepared it, kept with the prepare record, so a transaction manager
 * that reconnects after a restart as the same user still may), and a user with the {@code admin}
 * right, may list it (XA_RECOVER) and end it (TX_END); its state (TX_QUERY) is for cluster
 * members only, checked where the broker registers that command. A prepared branch whose owner is not known (its
 * prepare record names none) is the admin's only; an open transaction whose owner is not known
 * (its sends survived a restart, no prepare names a user) is anyone's who has its random 64-bit
 * id, as it was. A refusal is logged, as a refused permission is. Thread-safe.
 */
final class TransactionOwnership {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionOwnership.class);

    private final Access access;

    TransactionOwnership(Access access) {
        this.access = access;
    }

    /** Whether the connection may list and end {@code t}. */
    boolean mayComplete(RemotingConnection connection, Transaction t) {
        String owner = t.ownerUser();
        if (owner == null) {
            return !t.preparedBranch() || admin(connection);
        }
        return owner.equals(new ConnectionSession(connection).user()) || admin(connection);
    }

    /** @throws BrokerException NOT_AUTHORIZED when the connection may not end the transaction held as {@code t} */
    void checkComplete(RemotingConnection connection, Optional<Transaction> t) {
        if (t.isPresent() && !mayComplete(connection, t.get())) {
            throw refused(connection, "end", t.get());
        }
    }

    private boolean admin(RemotingConnection connection) {
        return access.allowsBroker(connection, Operation.ADMIN);
    }

    private BrokerException refused(RemotingConnection connection, String what, Transaction t) {
        String refusal = "user " + access.identity(connection).describe() + " may not " + what + " "
                + (t.preparedBranch() ? "XA branch " + t.xid() : "transaction " + t.id()) + ": it belongs to another user";
        LOG.info("refused: {}", refusal);
        return new BrokerException(Refusal.NOT_AUTHORIZED, refusal);
    }
}
