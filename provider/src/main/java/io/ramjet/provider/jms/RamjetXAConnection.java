package io.ramjet.provider.jms;

import io.ramjet.provider.client.ConnectionInfo;
import io.ramjet.provider.client.RamjetClient;
import io.ramjet.provider.jms.transaction.TwoPhaseCommit;
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
 * manager and share its branches; opened with an {@link XaResourceManager}, they share them with
 * the other connections of the same user opened with it, and it answers the brokers' check-backs
 * of those branches too.
 */
public final class RamjetXAConnection extends RamjetConnection
        implements XAConnection, XAQueueConnection, XATopicConnection {

    private final XaBranches branches;
    private final TwoPhaseCommit onePhase;

    RamjetXAConnection(ConnectionInfo info, RamjetClient client) {
        this(info, client, null);
    }

    /** @param resourceManager the resource manager whose branches it shares, or null for one of its own */
    RamjetXAConnection(ConnectionInfo info, RamjetClient client, XaResourceManager resourceManager) {
        super(info, client);
        int sendsInFlight = info.options().transactedSendsInFlight();
        if (resourceManager == null) {
            this.branches = new XaBranches(ledger(), sendsInFlight);
            this.onePhase = twoPhaseCommit();
        } else {
            this.branches = resourceManager.branchesOf(
                    info.credentials() == null ? "" : info.credentials().user(), sendsInFlight);
            this.onePhase = new TwoPhaseCommit(client, branches.ledger());
            answerChecksAlsoFrom(branches.ledger());
        }
    }

    @Override
    public XASession createXASession() throws JMSException {
        checkOpen();
        fixClientId();
        return added(RamjetXASession.open(this, nextSessionId(), branches, onePhase));
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
