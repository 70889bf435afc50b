package io.ramjet.provider.jms.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionRolledBackException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The connection's answers to the broker's check-back: a transaction still in progress is
 * OPEN, so the broker waits, until its maximum of checks, after which it rolls the transaction
 * back and the commit says so.
 */
class CheckBackTest {

    private static final Duration CHECK_AFTER = Duration.ofMillis(100);
    private static final Duration CHECK_INTERVAL = Duration.ofMillis(50);
    /** Several check-back rounds: the broker's timing, which no client event reveals. */
    private static final long CHECKED_SEVERAL_TIMES_MS = 800;

    private EmbeddedBroker broker;
    private Path dataDir;

    private Connection connect(int maxChecks) throws Exception {
        dataDir = Files.createTempDirectory("ramjet-checkback-");
        broker = EmbeddedBroker.start(dataDir, c -> c.withTransactionChecks(CHECK_AFTER, CHECK_INTERVAL, maxChecks));
        Connection connection = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress()).createConnection();
        connection.start();
        return connection;
    }

    @AfterEach
    void stop() {
        broker.close();
        EmbeddedBrokerFiles.delete(dataDir);
    }

    @Test
    void aTransactionStillInProgressIsAnsweredOpenAndCommitsLater() throws Exception {
        try (Connection connection = connect(1_000)) {
            Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
            Queue q = tx.createQueue(Destinations.unique("checked"));
            tx.createProducer(q).send(tx.createTextMessage("waited for"));
            Thread.sleep(CHECKED_SEVERAL_TIMES_MS);
            tx.commit();
            MessageConsumer consumer = connection.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(q);
            assertEquals("waited for", ((TextMessage) consumer.receive(5_000)).getText());
        }
    }

    @Test
    void aTransactionOpenPastTheMaximumOfChecksIsRolledBackAndItsCommitSaysSo() throws Exception {
        try (Connection connection = connect(2)) {
            Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
            Queue q = tx.createQueue(Destinations.unique("expired"));
            tx.createProducer(q).send(tx.createTextMessage("too slow"));
            Thread.sleep(CHECKED_SEVERAL_TIMES_MS);
            assertThrows(TransactionRolledBackException.class, tx::commit);
            MessageConsumer consumer = connection.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(q);
            assertNull(consumer.receive(300));
            tx.createProducer(q).send(tx.createTextMessage("in time"));
            tx.commit();
            assertEquals("in time", ((TextMessage) consumer.receive(5_000)).getText());
        }
    }
}
