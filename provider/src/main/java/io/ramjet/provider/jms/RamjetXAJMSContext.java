package io.ramjet.provider.jms;

import static io.ramjet.provider.jms.RuntimeExceptions.unchecked;

import jakarta.jms.JMSContext;
import jakarta.jms.XAJMSContext;
import javax.transaction.xa.XAResource;

/**
 * The simplified API over an XA session: the work belongs to the global transaction of
 * {@link #getXAResource()}; {@code commit} and {@code rollback} throw
 * {@code TransactionInProgressRuntimeException}.
 */
final class RamjetXAJMSContext extends RamjetJMSContext implements XAJMSContext {

    private RamjetXAJMSContext(SharedConnection shared) {
        super(shared, JMSContext.SESSION_TRANSACTED,
                unchecked(() -> (RamjetSession) ((RamjetXAConnection) shared.connection).createXASession()));
    }

    static RamjetXAJMSContext open(RamjetXAConnection connection) {
        return open(connection, RamjetXAJMSContext::new);
    }

    @Override
    public JMSContext getContext() {
        return this;
    }

    @Override
    public XAResource getXAResource() {
        return ((RamjetXASession) session()).getXAResource();
    }
}
