package io.ramjet.provider.jms.xa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.provider.jms.RamjetXAConnectionFactory;
import io.ramjet.provider.jms.transaction.Destinations;
import io.ramjet.provider.jms.transaction.RamjetXid;
import io.ramjet.server.embedded.EmbeddedCluster;
import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.TransactionInProgressRuntimeException;
import jakarta.jms.XAConnection;
import jakarta.jms.XAJMSContext;
import jakarta.jms.XASession;
import jakarta.transaction.TransactionManager;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * XA sessions with Narayana as the transaction manager, over two brokers: queue {@code a} lives
 * on broker 0 and queue {@code b} on broker 1.
 */
class XaTransactionTest {

    private static final long TIMEOUT = 5_000;
    private static final long SHORT = 300;

    private static EmbeddedCluster cluster;
    private static Path objectStore;
    private static TransactionManager tm;

    private XAConnection xa1;
    private XAConnection xa2;
    private Connection plainConnection;
    private Session plain;
    private Queue a;
    private Queue b;

    @BeforeAll
    static void start() throws Exception {
        cluster = EmbeddedCluster.start(2);
        objectStore = Files.createTempDirectory("ramjet-narayana-");
        tm = NarayanaSupport.transactionManager(objectStore);
    }

    @AfterAll
    static void stop() throws Exception {
        cluster.close();
        NarayanaSupport.delete(objectStore);
    }

    private static RamjetXAConnectionFactory xaFactory() {
        return new RamjetXAConnectionFactory("ramjet://" + cluster.nameServerAddress());
    }

    @BeforeEach
    void connect() throws Exception {
        String nameA = Destinations.unique("xa-a");
        String nameB = Destinations.unique("xa-b");
        Destinations.createQueueOn(cluster.nameServerAddress(), cluster.broker(0).address(), nameA);
        Destinations.createQueueOn(cluster.nameServerAddress(), cluster.broker(1).address(), nameB);
        xa1 = xaFactory().createXAConnection();
        xa2 = xaFactory().createXAConnection();
        xa1.start();
        xa2.start();
        plainConnection = new RamjetConnectionFactory("ramjet://" + cluster.nameServerAddress()).createConnection();
        plainConnection.start();
        plain = plainConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        a = plain.createQueue(nameA);
        b = plain.createQueue(nameB);
    }

    @AfterEach
    void close() throws Exception {
        if (tm.getTransaction() != null) {
            tm.rollback();
        }
        xa1.close();
        xa2.close();
        plainConnection.close();
    }

    private static String text(Message m) throws Exception {
        assertNotNull(m, "no message");
        return ((TextMessage) m).getText();
    }

    @Test
    void anXaSessionRefusesLocalCommitAndRollback() throws Exception {
        XASession session = xa1.createXASession();
        assertTrue(session.getTransacted());
        assertThrows(TransactionInProgressException.class, session::commit);
        assertThrows(TransactionInProgressException.class, session::rollback);
        assertTrue(session.getSession() == session);
    }

    @Test
    void theQueueAndTopicFlavoursMakeXaSessions() throws Exception {
        try (jakarta.jms.XAQueueConnection queues = xaFactory().createXAQueueConnection();
             jakarta.jms.XATopicConnection topics = xaFactory().createXATopicConnection()) {
            jakarta.jms.XAQueueSession q = queues.createXAQueueSession();
            jakarta.jms.XATopicSession t = topics.createXATopicSession();
            assertNotNull(q.getQueueSession().createQueue("flavour"));
            assertNotNull(t.getTopicSession().createTopic("flavour"));
            assertNotNull(q.getXAResource());
            assertFalse(q.getXAResource().isSameRM(t.getXAResource()));
        }
        assertFalse(xaFactory().equals(new RamjetConnectionFactory("ramjet://" + cluster.nameServerAddress())));
    }

    @Test
    void outsideAGlobalTransactionAnXaSessionWorksLikeAutoAcknowledge() throws Exception {
        XASession session = xa1.createXASession();
        session.createProducer(a).send(session.createTextMessage("plain"));
        MessageConsumer consumer = session.createConsumer(a);
        assertEquals("plain", text(consumer.receive(TIMEOUT)));
        consumer.close();
        assertNull(plain.createConsumer(a).receive(SHORT));
    }

    @Test
    void aGlobalTransactionOverTwoBrokersCommits() throws Exception {
        plain.createProducer(a).send(plain.createTextMessage("to move"));
        XASession s1 = xa1.createXASession();
        XASession s2 = xa2.createXASession();
        MessageConsumer fromA = s1.createConsumer(a);
        tm.begin();
        tm.getTransaction().enlistResource(s1.getXAResource());
        tm.getTransaction().enlistResource(s2.getXAResource());
        Message moved = fromA.receive(TIMEOUT);
        assertEquals("to move", text(moved));
        s2.createProducer(b).send(moved);
        s1.createProducer(b).send(s1.createTextMessage("second"));
        MessageConsumer onB = plain.createConsumer(b);
        assertNull(onB.receive(SHORT), "nothing is visible before the commit");
        tm.commit();
        java.util.Set<String> arrived = new java.util.HashSet<>();
        arrived.add(text(onB.receive(TIMEOUT)));
        arrived.add(text(onB.receive(TIMEOUT)));
        assertEquals(java.util.Set.of("to move", "second"), arrived, "both branches committed");
        fromA.close();
        assertNull(plain.createConsumer(a).receive(SHORT), "the consumed message is acknowledged");
    }

    @Test
    void aGlobalTransactionOverTwoBrokersRollsBack() throws Exception {
        plain.createProducer(a).send(plain.createTextMessage("stays"));
        XASession s1 = xa1.createXASession();
        XASession s2 = xa2.createXASession();
        MessageConsumer fromA = s1.createConsumer(a);
        tm.begin();
        tm.getTransaction().enlistResource(s1.getXAResource());
        tm.getTransaction().enlistResource(s2.getXAResource());
        assertEquals("stays", text(fromA.receive(TIMEOUT)));
        s2.createProducer(b).send(s2.createTextMessage("never"));
        tm.rollback();
        fromA.close();
        assertNull(plain.createConsumer(b).receive(SHORT));
        Message back = plain.createConsumer(a).receive(TIMEOUT);
        assertEquals("stays", text(back));
        assertTrue(back.getJMSRedelivered());
    }

    @Test
    void oneResourceCommitsInOnePhase() throws Exception {
        XASession s1 = xa1.createXASession();
        tm.begin();
        tm.getTransaction().enlistResource(s1.getXAResource());
        s1.createProducer(a).send(s1.createTextMessage("one phase"));
        s1.createProducer(b).send(s1.createTextMessage("one phase too"));
        tm.commit();
        assertEquals("one phase", text(plain.createConsumer(a).receive(TIMEOUT)));
        assertEquals("one phase too", text(plain.createConsumer(b).receive(TIMEOUT)));
    }

    @Test
    void aBranchThatDidNothingPreparesReadOnly() throws Exception {
        XAResource resource = xa1.createXASession().getXAResource();
        Xid xid = newXid();
        resource.start(xid, XAResource.TMNOFLAGS);
        resource.end(xid, XAResource.TMSUCCESS);
        assertEquals(XAResource.XA_RDONLY, resource.prepare(xid));
        XAException e = assertThrows(XAException.class, () -> resource.prepare(xid));
        assertEquals(XAException.XAER_NOTA, e.errorCode);
    }

    @Test
    void aBranchPastItsTimeoutRollsBackAtPrepare() throws Exception {
        XASession session = xa1.createXASession();
        XAResource resource = session.getXAResource();
        assertTrue(resource.setTransactionTimeout(1));
        assertEquals(1, resource.getTransactionTimeout());
        Xid xid = newXid();
        resource.start(xid, XAResource.TMNOFLAGS);
        session.createProducer(a).send(session.createTextMessage("too late"));
        resource.end(xid, XAResource.TMSUCCESS);
        Thread.sleep(1_100); // the timeout is in whole seconds
        assertEquals(XAException.XA_RBTIMEOUT, assertThrows(XAException.class, () -> resource.prepare(xid)).errorCode);
        assertNull(plain.createConsumer(a).receive(SHORT));
    }

    @Test
    void theXaStateTableIsEnforced() throws Exception {
        XAResource resource = xa1.createXASession().getXAResource();
        Xid xid = newXid();
        resource.start(xid, XAResource.TMNOFLAGS);
        assertEquals(XAException.XAER_PROTO,
                assertThrows(XAException.class, () -> resource.start(newXid(), XAResource.TMNOFLAGS)).errorCode);
        assertEquals(XAException.XAER_PROTO, assertThrows(XAException.class, () -> resource.prepare(xid)).errorCode);
        resource.end(xid, XAResource.TMSUSPEND);
        resource.start(xid, XAResource.TMRESUME);
        resource.end(xid, XAResource.TMSUCCESS);
        XAResource other = xa1.createXASession().getXAResource();
        assertEquals(XAException.XAER_DUPID,
                assertThrows(XAException.class, () -> other.start(xid, XAResource.TMNOFLAGS)).errorCode);
        assertTrue(other.isSameRM(resource));
        assertFalse(xa2.createXASession().getXAResource().isSameRM(resource));
        resource.rollback(xid);
    }

    @Test
    void aPreparedBranchSurvivesABrokerRestartAndCommitsThroughRecover() throws Exception {
        XASession session = xa1.createXASession();
        XAResource resource = session.getXAResource();
        Xid xid = newXid();
        resource.start(xid, XAResource.TMNOFLAGS);
        session.createProducer(a).send(session.createTextMessage("in doubt"));
        resource.end(xid, XAResource.TMSUCCESS);
        assertEquals(XAResource.XA_OK, resource.prepare(xid));
        xa1.close();
        int port = Integer.parseInt(cluster.broker(0).address().split(":")[1]);
        cluster.stopBroker(0);
        cluster.restartBroker(0, port);
        try (XAConnection recovering = xaFactory().createXAConnection()) {
            XAResource after = recovering.createXASession().getXAResource();
            Xid[] prepared = after.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN);
            assertTrue(Arrays.asList(prepared).contains(new RamjetXid(xid.getFormatId(),
                    xid.getGlobalTransactionId(), xid.getBranchQualifier())), "recover lists the prepared branch");
            MessageConsumer onA = plain.createConsumer(a);
            assertNull(onA.receive(SHORT), "a prepared branch stays invisible");
            after.commit(xid, false);
            assertFalse(Arrays.asList(after.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN)).contains(xid));
            assertEquals("in doubt", text(onA.receive(TIMEOUT)));
        }
        xa1 = xaFactory().createXAConnection();
    }

    @Test
    void anXaContextRefusesLocalCommitAndWorksInAGlobalTransaction() throws Exception {
        try (XAJMSContext context = xaFactory().createXAContext()) {
            assertTrue(context.getTransacted());
            assertThrows(TransactionInProgressRuntimeException.class, context::commit);
            assertEquals(JMSContext.SESSION_TRANSACTED, context.getSessionMode());
            tm.begin();
            tm.getTransaction().enlistResource(context.getXAResource());
            context.getContext().createProducer().send(a, "from a context");
            tm.commit();
        }
        assertEquals("from a context", text(plain.createConsumer(a).receive(TIMEOUT)));
    }

    /** A branch that sent one message to {@code a} and is prepared. */
    private Xid preparedBranch(XASession session) throws Exception {
        Xid xid = newXid();
        XAResource resource = session.getXAResource();
        resource.start(xid, XAResource.TMNOFLAGS);
        session.createProducer(a).send(session.createTextMessage("decided once"));
        resource.end(xid, XAResource.TMSUCCESS);
        assertEquals(XAResource.XA_OK, resource.prepare(xid));
        return xid;
    }

    private static int errorOf(XaCall call) {
        return assertThrows(XAException.class, call::run).errorCode;
    }

    private interface XaCall {
        void run() throws XAException;
    }

    @Test
    void aCommittedBranchIsForgottenSoCommittingOrRollingItBackAgainIsAnUnknownXid() throws Exception {
        XAResource resource = xa1.createXASession().getXAResource();
        Xid xid = preparedBranch(xa1.createXASession());
        resource.commit(xid, false);
        XAResource another = xa2.createXASession().getXAResource();
        assertEquals(XAException.XAER_NOTA, errorOf(() -> resource.commit(xid, false)));
        assertEquals(XAException.XAER_NOTA, errorOf(() -> another.commit(xid, false)));
        assertEquals(XAException.XAER_NOTA, errorOf(() -> another.rollback(xid)));
        assertEquals("decided once", text(plain.createConsumer(a).receive(TIMEOUT)));
        assertNull(plain.createConsumer(a).receive(SHORT), "committed once");
    }

    @Test
    void aRolledBackBranchIsForgottenSoCommittingItIsAnUnknownXid() throws Exception {
        XASession session = xa1.createXASession();
        Xid xid = preparedBranch(session);
        session.getXAResource().rollback(xid);
        XAResource another = xa2.createXASession().getXAResource();
        assertEquals(XAException.XAER_NOTA, errorOf(() -> another.commit(xid, false)));
        assertEquals(XAException.XAER_NOTA, errorOf(() -> another.rollback(xid)));
        assertNull(plain.createConsumer(a).receive(SHORT), "rolled back");
    }

    @Test
    void aXidNeverSeenIsUnknownToCommitAndRollback() throws Exception {
        XAResource resource = xa1.createXASession().getXAResource();
        Xid xid = newXid();
        assertEquals(XAException.XAER_NOTA, errorOf(() -> resource.commit(xid, false)));
        assertEquals(XAException.XAER_NOTA, errorOf(() -> resource.rollback(xid)));
    }

    private static Xid newXid() {
        byte[] global = UUID.randomUUID().toString().getBytes(StandardCharsets.US_ASCII);
        byte[] branch = {1};
        return new RamjetXid(4711, global, branch);
    }

    @Test
    void recoveredXidsEqualTheOriginal() {
        Xid xid = newXid();
        Xid decoded = RamjetXid.decode(RamjetXid.encode(xid));
        assertEquals(xid, decoded);
        assertArrayEquals(xid.getGlobalTransactionId(), decoded.getGlobalTransactionId());
    }
}
