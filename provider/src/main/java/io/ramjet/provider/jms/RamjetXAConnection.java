package io.ramjet.provider.jms;

import io.ramjet.provider.client.ConnectionInfo;
import io.ramjet.provider.client.RamjetClient;
import io.ramjet.provider.jms.transaction.XaBranches;
import jakarta.jms.JMSException;
import jakarta.jms.XAConnection;
import jakarta.jms.XAQueueConnection;
import jakarta.jms.XAQueueSession;
import jakarta.jms.XASession;
import jakarta.jms.XATopicConnection;
import jakarta.jms.XATopicSession;

/**
 * A connection that also makes XA sessions. The XAResources of its XA sessions are one resource
 * manager and share its branches.
 */
public final class RamjetXAConnection extends RamjetConnection
        implements XAConnection, XAQueueConnection, XATopicConnection {

    private final XaBranches branches;

    RamjetXAConnection(ConnectionInfo info, RamjetClient client) {
        super(info, client);
        this.branches = new XaBranches(ledger(), info.options().transactedSendsInFlight());
    }

    @Override
    public XASession createXASession() throws JMSException {
        checkOpen();
        fixClientId();
        return added(RamjetXASession.open(this, nextSessionId(), branches));
    }

    @Override
    public XAQueueSession createXAQueueSession() throws JMSException {
        return (XAQueueSession) createXASession();
    }

    @Override
    public XATopicSession createXATopicSession() throws JMSException {
        return (XATopicSession) createXASession();
    }
}
