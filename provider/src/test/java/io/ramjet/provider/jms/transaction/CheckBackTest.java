package io.ramjet.provider.jms.transaction;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.ramjet.model.TxState;
import io.ramjet.provider.client.BrokerClient;
import io.ramjet.provider.client.FailoverRamjetClient;
import io.ramjet.provider.client.RemotingRamjetClient;
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
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
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
    private EmbeddedBroker broker;
    private Path dataDir;
    /** The broker's check-backs the connection has answered. */
    private final AtomicInteger checksAnswered = new AtomicInteger();

    private Connection connect(int maxChecks) throws Exception {
        dataDir = Files.createTempDirectory("ramjet-checkback-");
        broker = EmbeddedBroker.start(dataDir, c -> c.withTransactionChecks(CHECK_AFTER, CHECK_INTERVAL, maxChecks));
        RamjetConnectionFactory factory = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress());
        factory.setClientFactory(info -> new FailoverRamjetClient(countingChecks(new RemotingRamjetClient(info)), info));
        Connection connection = factory.createConnection();
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
            await("three times the maximum of checks answered").atMost(Duration.ofSeconds(10))
                    .until(() -> checksAnswered.get() >= 3 * MAX_CHECKS);
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

    /** {@code real}, counting in {@link #checksAnswered} each check-back the connection answers through it. */
    private BrokerClient countingChecks(BrokerClient real) {
        return (BrokerClient) Proxy.newProxyInstance(BrokerClient.class.getClassLoader(),
                new Class<?>[] {BrokerClient.class}, (proxy, method, args) -> {
                    if (method.getName().equals("answerTransactionChecks")) {
                        @SuppressWarnings("unchecked")
                        LongFunction<TxState> states = (LongFunction<TxState>) args[0];
                        args = new Object[] {(LongFunction<TxState>) id -> {
                            checksAnswered.incrementAndGet();
                            return states.apply(id);
                        }};
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
