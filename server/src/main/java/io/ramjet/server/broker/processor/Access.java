package io.ramjet.server.broker.processor;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.security.Authorizer;
import io.ramjet.server.broker.security.Identity;
import io.ramjet.server.broker.security.Operation;

/**
 * The processors' authorization checks: the {@link Authorizer} asked with the identity the
 * connection authenticated as ({@link Authentication#identityOf}), or the anonymous one. Each check comes before the
 * request changes anything, so a refused request has done nothing. Thread-safe.
 */
public final class Access {

    private final Authorizer authorizer;
    private final Identity anonymous;

    public Access(Authorizer authorizer, Identity anonymous) {
        this.authorizer = authorizer;
        this.anonymous = anonymous;
    }

    Identity identity(RemotingConnection connection) {
        Identity identity = Authentication.identityOf(connection);
        return identity == null ? anonymous : identity;
    }

    /** @throws BrokerException NOT_AUTHORIZED when the connection's user may not */
    void check(RemotingConnection connection, Operation operation, String destination) {
        authorizer.check(identity(connection), operation, destination);
    }

    /** @throws BrokerException NOT_AUTHORIZED when the connection's user may not */
    void checkBroker(RemotingConnection connection, Operation operation) {
        authorizer.checkBroker(identity(connection), operation);
    }

    /** Whether the connection's user may do the operation on the destination; a no is not logged. */
    boolean allows(RemotingConnection connection, Operation operation, String destination) {
        return authorizer.allows(identity(connection), operation, destination);
    }

    /** Whether the connection's user has a broker-wide right; a no is not logged. */
    boolean allowsBroker(RemotingConnection connection, Operation operation) {
        return authorizer.allowsBroker(identity(connection), operation);
    }

    /**
     * Checks the right to create the destination when using it would create it (it does not
     * exist and the broker creates destinations on first use). Where the broker does not, the
     * use is refused as an unknown destination instead, whoever asks.
     */
    void checkCreatedByUse(RemotingConnection connection, DestinationTable destinations, DestinationKind kind,
                           String name) {
        if (destinations.autoCreate() && destinations.find(kind, name).isEmpty()) {
            check(connection, Operation.CREATE_DESTINATION, name);
        }
    }
}
