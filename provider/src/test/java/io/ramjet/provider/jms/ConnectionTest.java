package io.ramjet.provider.jms;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.Connection;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConnectionTest extends BrokerTestSupport {

    @Test
    void clientIdIsUniqueAmongOpenConnections() throws Exception {
        String id = unique("unique");
        try (Connection first = factory().createConnection(); Connection second = factory().createConnection()) {
            first.setClientID(id);
            assertThrows(InvalidClientIDException.class, () -> second.setClientID(id));
        }
        try (Connection again = factory().createConnection()) {
            assertDoesNotThrow(() -> again.setClientID(id), "free once its connection closed");
        }
    }

    @Test
    void receiveWaitsForTheConnectionToStart() throws Exception {
        try (Connection connection = factory().createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("stopped"));
            session.createProducer(queue).send(session.createTextMessage("waiting"));
            MessageConsumer consumer = session.createConsumer(queue);
            assertNull(consumer.receive(SHORT), "not delivered while stopped");
            connection.start();
            assertNotNull(consumer.receive(TIMEOUT));
        }
    }

    @Test
    void closingAConnectionMakesAPendingReceiveReturnNull() throws Exception {
        Connection connection = connect();
        Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = session.createConsumer(session.createQueue(unique("pending")));
        CompletableFuture<Message> received = new CompletableFuture<>();
        Thread receiver = new Thread(() -> {
            try {
                received.complete(consumer.receive());
            } catch (Throwable e) {
                received.completeExceptionally(e);
            }
        });
        receiver.start();
        // the receiving thread blocked in receive, waiting for a message
        await().atMost(Duration.ofMillis(TIMEOUT))
                .until(receiver::getState, state -> state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING);
        connection.close();
        assertNull(received.get(TIMEOUT, TimeUnit.MILLISECONDS));
        receiver.join();
    }

    @Test
    void theExceptionListenerHearsOfALostBroker() throws Exception {
        EmbeddedBroker own = EmbeddedBroker.start();
        RamjetConnectionFactory factory = new RamjetConnectionFactory("ramjet://" + own.nameServerAddress());
        try (Connection connection = factory.createConnection()) {
            CountDownLatch told = new CountDownLatch(1);
            connection.setExceptionListener(e -> told.countDown());
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            session.createConsumer(session.createQueue(unique("lost")));
            own.close();
            assertTrue(told.await(TIMEOUT, TimeUnit.MILLISECONDS));
        }
    }
}
