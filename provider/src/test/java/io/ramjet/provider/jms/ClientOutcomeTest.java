package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.client.ClientException;
import io.ramjet.provider.client.ClientException.Outcome;
import io.ramjet.provider.client.ClientException.Reason;
import io.ramjet.provider.client.InMemoryBrokerClient;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionRolledBackException;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import io.ramjet.provider.jms.transaction.RamjetXid;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the façade makes of the client's outcomes, against an in-memory broker under the real
 * failover policy: no broker process, no sockets (but for the last test, which needs a port
 * where no NameServer listens).
 */
class ClientOutcomeTest {

    private static final long RECEIVE_MILLIS = 2_000;

    private final InMemoryBrokerClient.Broker broker = new InMemoryBrokerClient.Broker();
    private Connection connection;

    @AfterEach
    void close() throws JMSException {
        if (connection != null) {
            connection.close();
        }
    }

    private RamjetConnectionFactory factory(String options) {
        return InMemoryFactories.factory(broker, options);
    }

    private Connection open(String options) throws JMSException {
        connection = factory(options).createConnection();
        connection.start();
        return connection;
    }

    private static ClientException certainlyNot(Reason reason) {
        return new ClientException(reason, Outcome.CERTAINLY_NOT_APPLIED, "injected " + reason, null);
    }

    @Test
    void completingAnUnknownBranchWhileNoBrokerIsRegisteredAsksTheTransactionManagerToRetry() throws JMSException {
        XAConnection xa = InMemoryFactories.xaFactory(broker).createXAConnection();
        connection = xa;
        XAResource resource = xa.createXASession().getXAResource();
        broker.unregister();
        Xid elsewhere = new RamjetXid(4712, new byte[] {7}, new byte[] {1});
        XAException commit = assertThrows(XAException.class, () -> resource.commit(elsewhere, false));
        assertEquals(XAException.XAER_RMFAIL, commit.errorCode, "a prepared branch may exist on a broker not yet back");
        XAException rollback = assertThrows(XAException.class, () -> resource.rollback(elsewhere));
        assertEquals(XAException.XAER_RMFAIL, rollback.errorCode);
    }

    /** An XA branch {@code xid} of a new XA connection that sent one message and ended; its resource. */
    private XAResource endedBranch(Xid xid) throws Exception {
        XAConnection xa = InMemoryFactories.xaFactory(broker).createXAConnection();
        connection = xa;
        XASession session = xa.createXASession();
        XAResource resource = session.getXAResource();
        resource.start(xid, XAResource.TMNOFLAGS);
        session.createProducer(session.createQueue("q")).send(session.createTextMessage("in branch"));
        resource.end(xid, XAResource.TMSUCCESS);
        return resource;
    }

    @Test
    void aVoteWhoseAnswerWasLostLeavesTheBranchInDoubtUntilItsRollbackReachesTheBroker() throws Exception {
        Xid xid = new RamjetXid(4712, new byte[] {8}, new byte[] {1});
        XAResource resource = endedBranch(xid);
        ClientException lost = new ClientException(Reason.CONNECTION_LOST, Outcome.OUTCOME_UNKNOWN, "injected", null);
        ClientException unreachable = new ClientException(Reason.UNREACHABLE, Outcome.CERTAINLY_NOT_APPLIED,
                "injected", null);
        broker.failPrepares(lost, unreachable);
        XAException vote = assertThrows(XAException.class, () -> resource.prepare(xid));
        assertEquals(XAException.XAER_RMFAIL, vote.errorCode, "the broker may hold the vote: not a rollback");
        assertThrows(XAException.class, () -> resource.rollback(xid), "the broker still cannot be reached");
        broker.failPrepares(null, null);
        resource.rollback(xid);
    }

    @Test
    void aRefusedVoteIsARollback() throws Exception {
        Xid xid = new RamjetXid(4712, new byte[] {9}, new byte[] {1});
        XAResource resource = endedBranch(xid);
        broker.failPrepares(certainlyNot(Reason.RESOURCE), null);
        XAException vote = assertThrows(XAException.class, () -> resource.prepare(xid));
        assertEquals(XAException.XA_RBROLLBACK, vote.errorCode);
    }

    @Test
    void aMessageSentToAQueueIsReceivedWithoutABroker() throws JMSException {
        Session session = open("").createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue("q");
        session.createProducer(queue).send(session.createTextMessage("hello"));
        TextMessage received = (TextMessage) session.createConsumer(queue).receive(RECEIVE_MILLIS);
        assertEquals("hello", received.getText());
    }

    /** A transacted session whose transaction holds one message sent to queue "q". */
    private Session sentInATransaction(String options) throws JMSException {
        Session session = open(options).createSession(true, Session.SESSION_TRANSACTED);
        session.createProducer(session.createQueue("q")).send(session.createTextMessage("in a transaction"));
        return session;
    }

    @Test
    void aCommitThatCertainlyDidNotApplyRollsBack() throws JMSException {
        Session session = sentInATransaction("");
        broker.failCommits(certainlyNot(Reason.UNREACHABLE));
        assertThrows(TransactionRolledBackException.class, session::commit);
        broker.failCommits(null);
        assertEquals(0, broker.unacknowledged("q"), "the rollback dropped the half message");
    }

    @Test
    void aCommitWhoseAnswerIsLostIsAskedAgainThenReportedUnknown() throws JMSException {
        Session session = sentInATransaction("?requestTimeout=1000");
        assertCommitUnknown(session, new ClientException(Reason.TIMEOUT, Outcome.OUTCOME_UNKNOWN, "no answer", null));
        assertTrue(broker.commitAttempts() > 1, "asked again: " + broker.commitAttempts());
    }

    @Test
    void aCommitFailingInsideTheBrokerIsUnknownAndNotAskedAgain() throws JMSException {
        Session session = sentInATransaction("");
        assertCommitUnknown(session, new ClientException(Reason.INTERNAL, Outcome.OUTCOME_UNKNOWN, "broker failed",
                null));
        assertEquals(1, broker.commitAttempts());
    }

    /** The commit, failing with {@code failure}, throws a JMSException that does not say "rolled back". */
    private void assertCommitUnknown(Session session, ClientException failure) {
        broker.failCommits(failure);
        JMSException unknown = assertThrows(JMSException.class, session::commit);
        assertFalse(unknown instanceof TransactionRolledBackException, unknown.toString());
    }

    @Test
    void aFullStoreIsAResourceAllocationException() throws JMSException {
        Session session = open("").createSession(false, Session.AUTO_ACKNOWLEDGE);
        broker.refuseSends(certainlyNot(Reason.RESOURCE));
        JMSException refused = assertThrows(JMSException.class,
                () -> session.createProducer(session.createQueue("q")).send(session.createTextMessage("x")));
        assertInstanceOf(ResourceAllocationException.class, refused);
    }

    @Test
    void aTransactionWithARefusedSendRollsBackAtCommit() throws JMSException {
        Session session = open("").createSession(true, Session.SESSION_TRANSACTED);
        Queue queue = session.createQueue("q");
        MessageProducer producer = session.createProducer(queue);
        producer.send(session.createTextMessage("sent"));
        broker.failSends(1, certainlyNot(Reason.RESOURCE));
        assertThrows(ResourceAllocationException.class, () -> producer.send(session.createTextMessage("refused")));
        assertThrows(TransactionRolledBackException.class, session::commit);
        assertNull(session.createConsumer(queue).receive(100));
    }

    @Test
    void refusedCredentialsAreAJMSSecurityException() {
        broker.refuseCredentials();
        assertThrows(JMSSecurityException.class, () -> factory("").createConnection("user", "wrong"));
    }

    @Test
    void aClientIdHeldByAnotherConnectionIsAnInvalidClientIDException() throws JMSException {
        connection = factory("").createConnection();
        connection.setClientID("one");
        try (Connection other = factory("").createConnection()) {
            assertThrows(InvalidClientIDException.class, () -> other.setClientID("one"));
        }
    }

    @Test
    void aClosedSessionRefusesToSend() throws JMSException {
        Session session = open("").createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue("q");
        session.close();
        assertThrows(IllegalStateException.class, () -> session.createProducer(queue));
    }

    @Test
    void aRolledBackReceiveIsRedelivered() throws JMSException {
        Session session = open("").createSession(true, Session.SESSION_TRANSACTED);
        Queue queue = session.createQueue("q");
        session.createProducer(queue).send(session.createTextMessage("again"));
        session.commit();
        MessageConsumer consumer = session.createConsumer(queue);
        assertFalse(consumer.receive(RECEIVE_MILLIS).getJMSRedelivered());
        session.rollback();
        assertTrue(consumer.receive(RECEIVE_MILLIS).getJMSRedelivered());
        session.commit();
        assertNull(consumer.receive(100));
    }

    @Test
    void thePrefetchOptionBoundsWhatAConsumerAsksFor() throws JMSException {
        Session session = open("?prefetch=3").createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue("q");
        MessageProducer producer = session.createProducer(queue);
        for (int i = 0; i < 10; i++) {
            producer.send(session.createTextMessage("m" + i));
        }
        MessageConsumer consumer = session.createConsumer(queue);
        for (int i = 0; i < 10; i++) {
            assertEquals("m" + i, ((TextMessage) consumer.receive(RECEIVE_MILLIS)).getText());
        }
        assertEquals(3, broker.largestPull());
    }

    @Test
    void createConnectionFailsWithinTheRequestTimeoutWhenNoNameServerAnswers() throws IOException {
        int port;
        try (ServerSocket unused = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = unused.getLocalPort();
        }
        RamjetConnectionFactory factory = new RamjetConnectionFactory("ramjet://127.0.0.1:" + port
                + "?requestTimeout=500");
        long start = System.nanoTime();
        JMSException failure = assertThrows(JMSException.class, factory::createConnection);
        assertTrue(failure.getMessage().contains("no NameServer"), failure.getMessage());
        assertTrue(Duration.ofNanos(System.nanoTime() - start).toMillis() < 5_000);
    }
}
