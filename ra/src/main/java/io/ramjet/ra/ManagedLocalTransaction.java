package io.ramjet.ra;

import jakarta.jms.JMSException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.LocalTransactionException;

/**
 * A container-managed local transaction on one pooled connection: between {@code begin} and its
 * end, sessions created on the connection share one transacted session, committed or rolled
 * back here.
 */
final class ManagedLocalTransaction implements LocalTransaction {

    private final RamjetManagedConnection connection;

    ManagedLocalTransaction(RamjetManagedConnection connection) {
        this.connection = connection;
    }

    @Override
    public void begin() throws ResourceException {
        connection.beginLocalTransaction();
    }

    @Override
    public void commit() throws ResourceException {
        try {
            connection.endLocalTransaction(true);
        } catch (JMSException e) {
            throw new LocalTransactionException("commit failed", e);
        }
    }

    @Override
    public void rollback() throws ResourceException {
        try {
            connection.endLocalTransaction(false);
        } catch (JMSException e) {
            throw new LocalTransactionException("rollback failed", e);
        }
    }
}
