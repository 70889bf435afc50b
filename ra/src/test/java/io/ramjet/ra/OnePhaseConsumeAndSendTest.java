package io.ramjet.ra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.provider.jms.transaction.RamjetXid;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionRolledBackException;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An MDB's consume-and-send as the adapter runs it, with Narayana deciding: a session of the
 * adapter's inbound side (opened as {@link DeliveryWorker} opens it) takes a message in a JTA
 * transaction and the application sends it on through the adapter's pooled factory. The two
 * connections are one resource manager when they sign on as the same user, so Narayana joins the
 * pooled connection to the session's branch and commits it in one phase, with no prepare.
 */
class OnePhaseConsumeAndSendTest extends BrokerAndTransactions {

    private static final long TIMEOUT = 5_000;

    private final List<AutoCloseable> opened = new ArrayList<>();
    private RamjetResourceAdapter adapter;

    @BeforeEach
    void startAdapter() {
        adapter = new RamjetResourceAdapter();
        adapter.setConnectionUrl(url());
        adapter.start(new TestContainer(transactions));
    }

    @AfterEach
    void stopAdapter() throws Exception {
        if (transactions.getTransaction() != null) {
            transactions.rollback();
        }
        for (AutoCloseable c : opened) {
            c.close();
        }
        adapter.stop();
    }

    @Test
    void consumeAndSendOfOneUserCommitInOnePhase() throws Exception {
        String in = unique("one-phase-in");
        String out = unique("one-phase-out");
        send(in, "order 1");
        Inbound mdb = inbound("alice");

        mdb.forward(in, pooledFactory("alice"), out);
        transactions.commit();

        assertEquals(0, mdb.resource.prepares.get(), "prepare asked");
        assertEquals(1, mdb.resource.onePhaseCommits.get(), "one-phase commits");
        assertEquals("order 1", receive(out));
        assertNull(receive(in, 300), "the consumed message is acknowledged");
    }

    @Test
    void rollbackOfAJoinedBranchUndoesTheSendAndTheConsume() throws Exception {
        String in = unique("joined-rollback-in");
        String out = unique("joined-rollback-out");
        send(in, "order 2");
        Inbound mdb = inbound("alice");

        mdb.forward(in, pooledFactory("alice"), out);
        transactions.rollback();
        mdb.connection.close();

        assertNull(receive(out, 300), "the joined connection's send is rolled back");
        assertEquals("order 2", receive(in));
    }

    /**
     * Both connections of the branch send, and the joined one also consumes: the brokers take
     * every connection of the branch's user as the branch's, so the one-phase commit through the
     * first covers all of it.
     */
    @Test
    void workOfBothJoinedConnectionsCommitsTogether() throws Exception {
        String in = unique("both-in");
        String also = unique("both-also");
        String out = unique("both-out");
        send(in, "order 4");
        send(also, "order 5");
        Inbound mdb = inbound("alice");

        mdb.forward(in, pooledFactory("alice"), out);
        try (Connection pooled = pooledFactory("alice").createConnection()) {
            Session s = pooled.createSession();
            pooled.start();
            Message taken = s.createConsumer(s.createQueue(also)).receive(TIMEOUT);
            assertNotNull(taken, "the joined connection took nothing");
            mdb.session.createProducer(mdb.session.createQueue(out)).send(taken);
        }
        transactions.commit();

        assertEquals(0, mdb.resource.prepares.get(), "prepare asked");
        assertEquals(Set.of("order 4", "order 5"), receiveAll(out, 2));
        assertNull(receive(in, 300), "the first connection's consumed message is acknowledged");
        assertNull(receive(also, 300), "the joined connection's consumed message is acknowledged");
    }

    /**
     * Connections of another user are another resource manager: Narayana keeps two branches and
     * prepares both, and a session of that user cannot join the first user's branch by its xid.
     */
    @Test
    void connectionOfAnotherUserIsRefusedTheBranch() throws Exception {
        String in = unique("two-users-in");
        String out = unique("two-users-out");
        send(in, "order 3");
        Inbound mdb = inbound("alice");

        mdb.forward(in, pooledFactory("eve"), out);
        Xid aliceBranch = mdb.resource.xid;
        XAResource eve = open("eve").resource;
        XAException refused = assertThrows(XAException.class, () -> eve.start(aliceBranch, XAResource.TMJOIN));
        transactions.commit();

        assertEquals(XAException.XAER_NOTA, refused.errorCode);
        assertFalse(eve.isSameRM(mdb.resource), "eve's resource is alice's resource manager");
        assertEquals(1, mdb.resource.prepares.get(), "alice's branch prepared beside eve's");
        assertEquals("order 3", receive(out));
        assertNull(receive(in, 300));
    }

    /**
     * Payara's transaction manager (JTS) rolls a joined branch back through the resource it
     * registered first, ending only that one before (it ends the joined ones after the rollback):
     * the rollback undoes the work of both sessions, the joined one's end after it is accepted,
     * and both start the next transaction; the message comes back as delivery 2 and only the
     * second attempt's send arrives.
     */
    @Test
    void rollbackThroughTheFirstResourceWhileAJoinedOneIsStillAssociatedUndoesBoth() throws Exception {
        String in = unique("payara-order-in");
        String out = unique("payara-order-out");
        send(in, "order 6");
        Inbound mdb = open("alice");
        Inbound pooled = open("alice");
        MessageConsumer consumer = mdb.session.createConsumer(mdb.session.createQueue(in));

        Xid first = newXid();
        mdb.resource.start(first, XAResource.TMNOFLAGS);
        assertEquals(1, consumer.receive(TIMEOUT).getIntProperty("JMSXDeliveryCount"));
        pooled.resource.start(first, XAResource.TMJOIN);
        pooled.sendTo(out, "attempt 1");
        mdb.resource.end(first, XAResource.TMSUCCESS);
        mdb.resource.rollback(first);
        pooled.resource.end(first, XAResource.TMSUCCESS);

        Xid second = newXid();
        mdb.resource.start(second, XAResource.TMNOFLAGS);
        Message again = consumer.receive(TIMEOUT);
        assertNotNull(again, "the rolled-back message is not redelivered");
        assertEquals(2, again.getIntProperty("JMSXDeliveryCount"));
        pooled.resource.start(second, XAResource.TMJOIN);
        pooled.sendTo(out, "attempt 2");
        pooled.resource.end(second, XAResource.TMSUCCESS);
        mdb.resource.end(second, XAResource.TMSUCCESS);
        mdb.resource.commit(second, true);

        assertEquals(Set.of("attempt 2"), receiveAll(out, 1));
        assertNull(receive(out, 300), "the first attempt's send was not rolled back");
        assertNull(receive(in, 300), "the redelivered message is acknowledged");
    }

    /**
     * A joined session the transaction manager never ends after the branch rolled back through
     * another resource is free for the next transaction, and the rolled-back branch keeps none of
     * what it sends afterwards.
     */
    @Test
    void joinedSessionNotEndedAfterTheRollbackStartsTheNextTransaction() throws Exception {
        String out = unique("never-ended-out");
        Inbound mdb = open("alice");
        Inbound pooled = open("alice");

        Xid first = newXid();
        mdb.resource.start(first, XAResource.TMNOFLAGS);
        pooled.resource.start(first, XAResource.TMJOIN);
        pooled.sendTo(out, "rolled back");
        mdb.resource.end(first, XAResource.TMSUCCESS);
        mdb.resource.rollback(first);
        assertThrows(TransactionRolledBackException.class, () -> pooled.sendTo(out, "after the rollback"));

        Xid second = newXid();
        pooled.resource.start(second, XAResource.TMNOFLAGS);
        pooled.sendTo(out, "next");
        pooled.resource.end(second, XAResource.TMSUCCESS);
        pooled.resource.commit(second, true);

        assertEquals(Set.of("next"), receiveAll(out, 1));
        assertNull(receive(out, 300), "a send of the rolled-back branch arrived");
    }

    /** An inbound session of {@code user}, in a JTA transaction begun with its resource enlisted. */
    private Inbound inbound(String user) throws Exception {
        return open(user).begin();
    }

    private Inbound open(String user) throws Exception {
        ConnectionSettings settings = new ConnectionSettings(url(), user, PASSWORD);
        XAConnection connection = settings.openXA(adapter.resourceManager(settings));
        opened.add(connection);
        XASession session = connection.createXASession();
        connection.start();
        return new Inbound(connection, session,
                new RecordingXAResource(new CompletingXAResource(session.getXAResource(), settings)));
    }

    private ConnectionFactory pooledFactory(String user) {
        RamjetManagedConnectionFactory managed = new RamjetManagedConnectionFactory();
        managed.setResourceAdapter(adapter);
        managed.setUserName(user);
        managed.setPassword(PASSWORD);
        return (ConnectionFactory) managed.createConnectionFactory(new TestContainer(transactions));
    }

    /** An MDB's session: the transaction manager sees its resource first. */
    private final class Inbound {
        final XAConnection connection;
        final XASession session;
        final RecordingXAResource resource;

        Inbound(XAConnection connection, XASession session, RecordingXAResource resource) {
            this.connection = connection;
            this.session = session;
            this.resource = resource;
        }

        Inbound begin() throws Exception {
            transactions.begin();
            assertTrue(transactions.getTransaction().enlistResource(resource));
            return this;
        }

        void sendTo(String queue, String text) throws JMSException {
            session.createProducer(session.createQueue(queue)).send(session.createTextMessage(text));
        }

        /** Takes one message from {@code in} and, as the MDB's onMessage does, sends it on to {@code out} through {@code factory}. */
        void forward(String in, ConnectionFactory factory, String out) throws Exception {
            MessageConsumer consumer = session.createConsumer(session.createQueue(in));
            Message m = consumer.receive(TIMEOUT);
            assertNotNull(m, "nothing to take");
            try (Connection pooled = factory.createConnection()) {
                Session s = pooled.createSession();
                s.createProducer(s.createQueue(out)).send(s.createTextMessage(((TextMessage) m).getText()));
            }
            consumer.close();
        }
    }

    private static Xid newXid() {
        return new RamjetXid(4711, UUID.randomUUID().toString().getBytes(StandardCharsets.US_ASCII), new byte[] {1});
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static void send(String queue, String text) throws JMSException {
        try (Connection connection = new RamjetConnectionFactory(url()).createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            session.createProducer(session.createQueue(queue)).send(session.createTextMessage(text));
        }
    }

    private static String receive(String queue) throws JMSException {
        String text = receive(queue, TIMEOUT);
        assertNotNull(text, "nothing arrived on " + queue);
        return text;
    }

    private static Set<String> receiveAll(String queue, int count) throws JMSException {
        try (Connection connection = new RamjetConnectionFactory(url()).createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
            connection.start();
            Set<String> texts = new HashSet<>();
            for (int i = 0; i < count; i++) {
                Message m = consumer.receive(TIMEOUT);
                assertNotNull(m, "only " + texts + " arrived on " + queue);
                texts.add(((TextMessage) m).getText());
            }
            return texts;
        }
    }

    private static String receive(String queue, long timeoutMillis) throws JMSException {
        try (Connection connection = new RamjetConnectionFactory(url()).createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
            connection.start();
            Message m = consumer.receive(timeoutMillis);
            return m == null ? null : ((TextMessage) m).getText();
        }
    }
}
