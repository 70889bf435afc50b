package io.ramjet.server.broker.security;

import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Supplier;

/**
 * The one place that decides whether a connection may do an operation to a destination, by its
 * {@link Identity}'s roles and the {@link Permissions}. A refusal is logged at the broker (user,
 * operation, destination) and thrown as {@link Refusal#NOT_AUTHORIZED}; the connection stays
 * usable. Thread-safe.
 */
public final class Authorizer {

    private static final Logger LOG = LoggerFactory.getLogger(Authorizer.class);

    private final Supplier<Permissions> permissions;

    /** @param permissions the permissions in force at each check (a watched file's latest) */
    public Authorizer(Supplier<Permissions> permissions) {
        this.permissions = permissions;
    }

    /** @throws BrokerException NOT_AUTHORIZED when the identity may not */
    public void check(Identity identity, Operation operation, String destination) {
        if (permissions.get().allows(identity.roles(), operation, destination)) {
            return;
        }
        LOG.info("refused: user {} may not {} '{}'", identity.describe(), operation.configName(), destination);
        throw new BrokerException(Refusal.NOT_AUTHORIZED, "user " + identity.describe() + " may not "
                + operation.configName() + (operation == Operation.ADMIN ? "" : " '" + destination + "'"));
    }

    /** Whether the identity may do the operation on the destination; a no is neither logged nor thrown. */
    public boolean allows(Identity identity, Operation operation, String destination) {
        return permissions.get().allows(identity.roles(), operation, destination);
    }

    /** Whether the identity may do a broker-wide operation; a no is neither logged nor thrown. */
    public boolean allowsBroker(Identity identity, Operation operation) {
        return permissions.get().allows(identity.roles(), operation, "#");
    }

    /** {@link #check} of a broker-wide operation. */
    public void checkBroker(Identity identity, Operation operation) {
        check(identity, operation, "#");
    }
}
