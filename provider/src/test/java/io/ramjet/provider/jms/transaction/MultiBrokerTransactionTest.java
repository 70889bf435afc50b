package io.ramjet.provider.jms.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.client.ConnectionInfo;
import io.ramjet.provider.client.RemotingRamjetClient;
import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.provider.message.SerializationAllowList;
import io.ramjet.server.embedded.EmbeddedCluster;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionRolledBackException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One transaction over two brokers: queue {@code a} on broker 0, queue {@code b} on broker 1.
 * The first broker a transaction touches coordinates it.
 */
class MultiBrokerTransactionTest {

    private static final long TIMEOUT = 5_000;
    private static final long SHORT = 300;

    private static EmbeddedCluster cluster;
    private Connection connection;
    private Session plain;
    private Queue a;
    private Queue b;

    @BeforeAll
    static void start() {
        cluster = EmbeddedCluster.start(2);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @BeforeEach
    void connect() throws Exception {
        String nameA = Destinations.unique("mb-a");
        String nameB = Destinations.unique("mb-b");
        Destinations.createQueueOn(cluster.nameServerAddress(), cluster.broker(0).address(), nameA);
        Destinations.createQueueOn(cluster.nameServerAddress(), cluster.broker(1).address(), nameB);
        connection = new RamjetConnectionFactory("ramjet://" + cluster.nameServerAddress()).createConnection();
        connection.start();
        plain = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        a = plain.createQueue(nameA);
        b = plain.createQueue(nameB);
    }

    @AfterEach
    void close() throws Exception {
        connection.close();
    }

    private static String text(Message m) throws Exception {
        assertNotNull(m, "no message");
        return ((TextMessage) m).getText();
    }

    @Test
    void sendsToTwoBrokersBecomeVisibleTogetherAtCommit() throws Exception {
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        tx.createProducer(a).send(tx.createTextMessage("to a"));
        tx.createProducer(b).send(tx.createTextMessage("to b"));
        MessageConsumer onA = plain.createConsumer(a);
        MessageConsumer onB = plain.createConsumer(b);
        assertNull(onA.receive(SHORT));
        assertNull(onB.receive(SHORT));
        tx.commit();
        assertEquals("to a", text(onA.receive(TIMEOUT)));
        assertEquals("to b", text(onB.receive(TIMEOUT)));
    }

    @Test
    void sendsToTwoBrokersRollBackTogether() throws Exception {
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        tx.createProducer(a).send(tx.createTextMessage("never a"));
        tx.createProducer(b).send(tx.createTextMessage("never b"));
        tx.rollback();
        assertNull(plain.createConsumer(a).receive(SHORT));
        assertNull(plain.createConsumer(b).receive(SHORT));
    }

    @Test
    void aMessageMovesFromOneBrokerToAnotherExactlyOnce() throws Exception {
        plain.createProducer(a).send(plain.createTextMessage("parcel"));
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageConsumer in = tx.createConsumer(a);
        Message m = in.receive(TIMEOUT);
        tx.createProducer(b).send(m);
        tx.rollback();
        m = in.receive(TIMEOUT);
        assertTrue(m.getJMSRedelivered());
        tx.createProducer(b).send(m);
        tx.commit();
        in.close();
        MessageConsumer onB = plain.createConsumer(b);
        assertEquals("parcel", text(onB.receive(TIMEOUT)));
        assertNull(onB.receive(SHORT));
        assertNull(plain.createConsumer(a).receive(SHORT));
    }

    @Test
    void aQueueSpreadOverTwoBrokersIsConsumedFromBothInOneTransaction() throws Exception {
        String spread = Destinations.unique("mb-spread");
        Destinations.createQueueOn(cluster.nameServerAddress(), cluster.broker(0).address(), spread);
        Destinations.createQueueOn(cluster.nameServerAddress(), cluster.broker(1).address(), spread);
        try (RemotingRamjetClient raw = new RemotingRamjetClient(new ConnectionInfo(UUID.randomUUID().toString(),
                List.of(cluster.nameServerAddress()), null, null, Duration.ofSeconds(5),
                SerializationAllowList.fromSystemProperties()))) {
            raw.send(RawMessages.text(spread, "first broker"), 0, 0, broker -> { }).get();
            raw.send(RawMessages.text(spread, "second broker"), 1, 0, broker -> { }).get();
        }
        Queue source = plain.createQueue(spread);
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageConsumer in = tx.createConsumer(source);
        Set<String> seen = new HashSet<>();
        seen.add(text(in.receive(TIMEOUT)));
        seen.add(text(in.receive(TIMEOUT)));
        assertEquals(Set.of("first broker", "second broker"), seen);
        tx.rollback();
        seen.clear();
        for (int i = 0; i < 2; i++) {
            Message again = in.receive(TIMEOUT);
            assertTrue(again.getJMSRedelivered());
            seen.add(text(again));
            tx.createProducer(a).send(again);
        }
        assertEquals(Set.of("first broker", "second broker"), seen);
        tx.commit();
        in.close();
        assertNull(plain.createConsumer(source).receive(SHORT), "both brokers applied the acknowledgements");
        MessageConsumer onA = plain.createConsumer(a);
        assertNotNull(onA.receive(TIMEOUT));
        assertNotNull(onA.receive(TIMEOUT));
        assertNull(onA.receive(SHORT));
    }

    @Test
    void aParticipantThatCannotPrepareRollsTheTransactionBackEverywhere() throws Exception {
        // the connection learns that b lives on broker 1 before that broker stops; else the
        // transaction's send would find b nowhere and create it on broker 0
        plain.createProducer(b).send(plain.createTextMessage("routed"));
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        tx.createProducer(a).send(tx.createTextMessage("coordinator side"));
        tx.createProducer(b).send(tx.createTextMessage("participant side"));
        int port = Integer.parseInt(cluster.broker(1).address().split(":")[1]);
        cluster.stopBroker(1);
        try {
            assertThrows(TransactionRolledBackException.class, tx::commit);
        } finally {
            cluster.restartBroker(1, port);
        }
        MessageConsumer onA = plain.createConsumer(a);
        assertNull(onA.receive(SHORT));
        tx.createProducer(a).send(tx.createTextMessage("next"));
        tx.commit();
        assertEquals("next", text(onA.receive(TIMEOUT)));
    }
}
