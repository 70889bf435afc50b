package io.ramjet.provider.jms;

import io.ramjet.provider.jms.transaction.RamjetXAResource;
import io.ramjet.provider.jms.transaction.TwoPhaseCommit;
import io.ramjet.provider.jms.transaction.XaBranches;
import io.ramjet.provider.jms.transaction.XaSessionTransaction;
import jakarta.jms.JMSException;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.TopicSession;
import jakarta.jms.XAQueueSession;
import jakarta.jms.XASession;
import jakarta.jms.XATopicSession;
import javax.transaction.xa.XAResource;

/**
 * An XA session: a session whose work belongs to the global transaction its
 * {@link RamjetXAResource} is associated with; {@code commit} and {@code rollback} throw
 * {@code TransactionInProgressException}. Outside a global transaction it works like an
 * AUTO_ACKNOWLEDGE session (Jakarta Messaging 3.1, section 8.8).
 */
public final class RamjetXASession extends RamjetSession implements XASession, XAQueueSession, XATopicSession {

    private final RamjetXAResource resource;

    private RamjetXASession(RamjetConnection connection, long sessionId, XaSessionTransaction transaction,
                            XaBranches branches, TwoPhaseCommit onePhase) {
        super(connection, sessionId, Session.SESSION_TRANSACTED, transaction);
        this.resource = new RamjetXAResource(branches, transaction, connection.client(), branches.ledger(), onePhase);
    }

    /** @param onePhase commits the branches' one-phase commits over this connection, in their ledger */
    static RamjetXASession open(RamjetConnection connection, long sessionId, XaBranches branches,
                                TwoPhaseCommit onePhase) {
        return new RamjetXASession(connection, sessionId, new XaSessionTransaction(), branches, onePhase);
    }

    @Override
    public Session getSession() throws JMSException {
        checkOpen();
        return this;
    }

    @Override
    public QueueSession getQueueSession() throws JMSException {
        checkOpen();
        return this;
    }

    @Override
    public TopicSession getTopicSession() throws JMSException {
        checkOpen();
        return this;
    }

    @Override
    public XAResource getXAResource() {
        return resource;
    }
}
