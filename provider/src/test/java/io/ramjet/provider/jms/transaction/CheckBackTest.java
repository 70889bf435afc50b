package io.ramjet.provider.jms.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The connection's answers to the broker's check-back: a transaction still in progress is
 * answered OPEN, so the broker keeps it, past its maximum of checks (which bounds transactions
 * whose owner is gone or silent), for as long as the connection lives.
 */
class CheckBackTest {

    private static final Duration CHECK_AFTER = Duration.ofMillis(100);
    private static final Duration CHECK_INTERVAL = Duration.ofMillis(50);
    private static final int MAX_CHECKS = 2;
    private static final int MESSAGES = 100;
    /** Several times the maximum of check-back rounds: the broker's timing, which no client event reveals. */
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
    void aTransactionStillInProgressIsKeptPastTheMaximumOfChecksAndCommitsWhole() throws Exception {
        try (Connection connection = connect(MAX_CHECKS)) {
            Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
            Queue q = tx.createQueue(Destinations.unique("checked"));
            MessageProducer producer = tx.createProducer(q);
            for (int i = 0; i < MESSAGES; i++) {
                producer.send(tx.createTextMessage("m" + i));
            }
            Thread.sleep(CHECKED_SEVERAL_TIMES_MS);
            tx.commit();
            MessageConsumer consumer = connection.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(q);
            for (int i = 0; i < MESSAGES; i++) {
                TextMessage received = (TextMessage) consumer.receive(5_000);
                assertNotNull(received, "message " + i);
                assertEquals("m" + i, received.getText());
            }
            assertNull(consumer.receiveNoWait());
        }
    }
}
