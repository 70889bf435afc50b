package io.ramjet.provider.jms.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.provider.jms.RamjetXAConnectionFactory;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import javax.transaction.xa.XAResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A transaction that consumed more messages than one frame can name: the client's frame limit is
 * set small ({@code maxFrameLength}), so {@link #CONSUMED} positions need several frames, as about
 * two million do under the default 16 MiB. The commit (local or XA) acknowledges all of them, a
 * rollback releases all of them.
 */
class ConsumedBeyondOneFrameTest {

    /** 8 KiB: a TX_END of {@link #CONSUMED} positions does not fit it. */
    private static final String OPTIONS = "?maxFrameLength=8192&prefetchBytes=2048&prefetch=100&requestTimeout=30000";
    private static final int CONSUMED = 3_000;
    private static final long TIMEOUT = 5_000;

    private static EmbeddedBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static String url() {
        return "ramjet://" + broker.nameServerAddress() + OPTIONS;
    }

    @Test
    void aCommitAcknowledgesEveryMessageConsumedAndARollbackReleasesEveryOne() throws Exception {
        try (Connection connection = new RamjetConnectionFactory(url()).createConnection()) {
            connection.start();
            Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
            Queue queue = tx.createQueue(Destinations.unique("consumed-many"));
            fill(tx, queue);

            MessageConsumer consumer = tx.createConsumer(queue);
            assertEquals(CONSUMED, receiveAll(consumer).size());
            tx.rollback();
            Set<String> again = receiveAll(consumer);
            assertEquals(CONSUMED, again.size(), "the rollback released every message");
            tx.commit();
            consumer.close();

            assertNothingLeft(connection, queue);
        }
    }

    @Test
    void anXaBranchPreparedWithMoreThanOneFrameCommitsWhole() throws Exception {
        try (XAConnection connection = new RamjetXAConnectionFactory(url()).createXAConnection()) {
            connection.start();
            Session plain = connection.createSession(true, Session.SESSION_TRANSACTED);
            Queue queue = plain.createQueue(Destinations.unique("xa-consumed-many"));
            fill(plain, queue);

            XASession session = connection.createXASession();
            XAResource resource = session.getXAResource();
            RamjetXid xid = new RamjetXid(7, "many".getBytes(StandardCharsets.UTF_8), new byte[] {1});
            resource.start(xid, XAResource.TMNOFLAGS);
            MessageConsumer consumer = session.getSession().createConsumer(queue);
            assertEquals(CONSUMED, receiveAll(consumer).size());
            resource.end(xid, XAResource.TMSUCCESS);
            assertEquals(XAResource.XA_OK, resource.prepare(xid));
            resource.commit(xid, false);
            consumer.close();

            assertNothingLeft(connection, queue);
        }
    }

    /** Sends {@link #CONSUMED} messages to {@code queue} in one transaction of {@code tx}. */
    private static void fill(Session tx, Queue queue) throws Exception {
        MessageProducer producer = tx.createProducer(queue);
        for (int i = 0; i < CONSUMED; i++) {
            producer.send(tx.createTextMessage("m-" + i));
        }
        tx.commit();
        producer.close();
    }

    /** Receives until {@link #CONSUMED} distinct messages came, failing on a gap longer than the timeout. */
    private static Set<String> receiveAll(MessageConsumer consumer) throws Exception {
        Set<String> bodies = new HashSet<>();
        while (bodies.size() < CONSUMED) {
            Message m = consumer.receive(TIMEOUT);
            assertNotNull(m, "message " + bodies.size() + " of " + CONSUMED);
            assertTrue(bodies.add(m.getBody(String.class)), "delivered once in the transaction");
        }
        return bodies;
    }

    private static void assertNothingLeft(Connection connection, Queue queue) throws Exception {
        Session check = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        try (MessageConsumer consumer = check.createConsumer(queue)) {
            assertNull(consumer.receive(1_000), "the commit acknowledged every message consumed");
        }
    }
}
