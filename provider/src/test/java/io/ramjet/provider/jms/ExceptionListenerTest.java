package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.server.embedded.EmbeddedCluster;
import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where the callbacks of a connection run (JMS 3.1 sections 6.1.8 and 7.3.8): exception
 * listeners on a thread of the connection's own, where stopping and closing the connection is
 * legal and returns; completion listeners on the session thread, where closing the producer,
 * session or connection is not.
 */
class ExceptionListenerTest {

    private static final long TIMEOUT = 10_000;

    private EmbeddedCluster cluster;

    @BeforeEach
    void startCluster() {
        cluster = EmbeddedCluster.start(1);
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    private RamjetConnectionFactory factory() {
        return new RamjetConnectionFactory("ramjet://" + cluster.nameServerAddress());
    }

    @Test
    void closeFromTheExceptionListenerWhenTheBrokerGoesAwayReturns() throws Exception {
        Connection connection = factory().createConnection();
        CompletableFuture<String> listenerThread = new CompletableFuture<>();
        CompletableFuture<Long> closeMillis = new CompletableFuture<>();
        connection.setExceptionListener(failure -> {
            listenerThread.complete(Thread.currentThread().getName());
            long start = System.nanoTime();
            try {
                connection.stop();
                connection.close();
                closeMillis.complete(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            } catch (JMSException | RuntimeException e) {
                closeMillis.completeExceptionally(e);
            }
        });
        Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue("exceptions.close");
        MessageConsumer consumer = session.createConsumer(queue);
        connection.start();
        session.createProducer(queue).send(session.createTextMessage("one"));
        assertNotNull(consumer.receive(TIMEOUT));

        cluster.stopBroker(0);

        long millis = closeMillis.get(TIMEOUT, TimeUnit.MILLISECONDS);
        System.out.println("close from the exception listener returned in " + millis + " ms on "
                + listenerThread.join());
        assertFalse(listenerThread.join().contains("client-io"), listenerThread.join());
        assertTrue(((RamjetConnection) connection).isClosed());
    }

    @Test
    void failuresReachTheListenerOneAtATimeInOrder() throws Exception {
        try (Connection connection = factory().createConnection()) {
            List<String> calls = new CopyOnWriteArrayList<>();
            CompletableFuture<Void> done = new CompletableFuture<>();
            connection.setExceptionListener(failure -> {
                calls.add("start " + failure.getMessage());
                sleep(20);
                calls.add("end " + failure.getMessage());
                if (calls.size() == 6) {
                    done.complete(null);
                }
            });
            RamjetConnection ramjet = (RamjetConnection) connection;
            for (int i = 1; i <= 3; i++) {
                ramjet.onAsyncFailure(new JMSException("failure " + i));
            }
            done.get(TIMEOUT, TimeUnit.MILLISECONDS);
            assertEquals(List.of("start failure 1", "end failure 1", "start failure 2", "end failure 2",
                    "start failure 3", "end failure 3"), calls);
        }
    }

    @Test
    void aCompletionListenerMustNotCloseItsProducerSessionOrConnection() throws Exception {
        try (Connection connection = factory().createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue("exceptions.completion");
            MessageProducer producer = session.createProducer(queue);
            CompletableFuture<List<Exception>> refusals = new CompletableFuture<>();
            CompletableFuture<String> callbackThread = new CompletableFuture<>();
            producer.send(session.createTextMessage("async"), new CompletionListener() {
                @Override
                public void onCompletion(Message message) {
                    callbackThread.complete(Thread.currentThread().getName());
                    List<Exception> thrown = new CopyOnWriteArrayList<>();
                    for (Closer closer : List.<Closer>of(producer::close, session::close, connection::close)) {
                        try {
                            closer.close();
                        } catch (Exception e) {
                            thrown.add(e);
                        }
                    }
                    refusals.complete(thrown);
                }

                @Override
                public void onException(Message message, Exception exception) {
                    refusals.completeExceptionally(exception);
                }
            });
            List<Exception> thrown = refusals.get(TIMEOUT, TimeUnit.MILLISECONDS);
            assertEquals(3, thrown.size(), thrown.toString());
            thrown.forEach(e -> assertInstanceOf(IllegalStateException.class, e));
            assertFalse(callbackThread.join().contains("client-io"), callbackThread.join());

            producer.send(session.createTextMessage("still open"));
            connection.start();
            MessageConsumer consumer = session.createConsumer(queue);
            assertEquals("async", ((TextMessage) consumer.receive(TIMEOUT)).getText());
            assertEquals("still open", ((TextMessage) consumer.receive(TIMEOUT)).getText());
            assertNull(consumer.receiveNoWait());
        }
    }

    private interface Closer {
        void close() throws Exception;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
