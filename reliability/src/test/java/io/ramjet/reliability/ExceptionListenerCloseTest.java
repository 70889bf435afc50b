package io.ramjet.reliability;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.listener.DefaultMessageListenerContainer;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an application does when the broker goes away: close the connection from its
 * ExceptionListener (as Spring's CachingConnectionFactory does), and, with Spring's listener
 * container, carry on consuming once the broker is back.
 */
class ExceptionListenerCloseTest {

    private static final Duration LISTENER_CALLED = Duration.ofSeconds(30);
    private static final Duration CLOSE_RETURNS = Duration.ofSeconds(5);
    private static final Duration RESUMES = Duration.ofSeconds(20);

    @RegisterExtension
    final Brokers brokers = Brokers.perTest();

    @Test
    void closeFromTheExceptionListenerReturns() throws Exception {
        BrokerProcess broker = brokers.start("exception-listener-close", new Properties());
        Connection connection = Jms.factory(broker).createConnection();
        CompletableFuture<Long> called = new CompletableFuture<>();
        CompletableFuture<Long> closed = new CompletableFuture<>();
        connection.setExceptionListener(e -> {
            long start = System.nanoTime();
            called.complete(start);
            try {
                connection.close();
                closed.complete((System.nanoTime() - start) / 1_000_000);
            } catch (JMSException | RuntimeException failure) {
                closed.completeExceptionally(failure);
            }
        });
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        session.createConsumer(session.createQueue("rel.close")).setMessageListener(m -> { });
        connection.start();
        long killed = System.nanoTime();
        broker.kill();

        String calledAfter = "never";
        String closeMs = "never";
        try {
            calledAfter = (called.get(LISTENER_CALLED.toMillis(), TimeUnit.MILLISECONDS) - killed) / 1_000_000 + "";
            closeMs = closed.get(CLOSE_RETURNS.toMillis(), TimeUnit.MILLISECONDS) + "";
        } catch (TimeoutException e) {
            // reported below
        } finally {
            System.out.println("RELIABILITY ExceptionListenerCloseTest.close: messages=0 kills=1 lost=0 duplicates=0"
                    + " listenerCalledAfterKillMs=" + calledAfter + " closeMs=" + closeMs);
            if (!closed.isDone()) {
                Jms.closeQuietly(connection);
            }
        }
        assertTrue(called.isDone(), "ExceptionListener not called within " + LISTENER_CALLED + " of kill -9");
        assertTrue(closed.isDone(), "close() from the ExceptionListener did not return within " + CLOSE_RETURNS);
    }

    @Test
    void springListenerContainerResumesAfterABrokerRestart() throws Exception {
        BrokerProcess broker = brokers.start("spring-container", new Properties());
        ConnectionFactory target = Jms.factory(broker);
        CachingConnectionFactory caching = new CachingConnectionFactory(target);
        DefaultMessageListenerContainer container = new DefaultMessageListenerContainer();
        Tally tally = new Tally();
        container.setConnectionFactory(caching);
        container.setDestinationName("rel.spring");
        container.setRecoveryInterval(500);
        container.setReceiveTimeout(500);
        container.setMessageListener((jakarta.jms.MessageListener) m -> {
            try {
                tally.received(Jms.id(m), m.getJMSRedelivered());
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });
        container.afterPropertiesSet();
        container.start();
        send(target, "before", tally);
        boolean before = Await.until(RESUMES, () -> tally.lost() == 0);
        broker.kill();
        broker.restart();
        long restarted = System.nanoTime();
        send(target, "after", tally);
        boolean after = Await.until(RESUMES, () -> tally.lost() == 0);
        long resumeMs = (System.nanoTime() - restarted) / 1_000_000;
        boolean stopped = stopWithin(container, caching, Jms.CLOSE_TIMEOUT);
        tally.summary("ExceptionListenerCloseTest.springContainer", 1, "resumedAfterRestartMs="
                + (after ? resumeMs : "never") + " shutdownReturned=" + stopped);
        assertAll(
                () -> assertTrue(before, "container did not consume before the restart"),
                () -> assertTrue(after, "container did not resume within " + RESUMES + " of the restart: "
                        + tally.lostSample(5)),
                () -> assertEquals(0, tally.lost(), "lost"),
                () -> assertTrue(stopped, "container and CachingConnectionFactory did not shut down within "
                        + Jms.CLOSE_TIMEOUT));
    }

    private static void send(ConnectionFactory factory, String prefix, Tally tally) throws JMSException {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue("rel.spring"));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < 10; i++) {
                TextMessage m = Jms.message(session, prefix + "-" + i);
                producer.send(m);
                tally.sent(prefix + "-" + i);
            }
        }
    }

    /** Spring's shutdown can hang with the bug this test looks for: it must not hang the test. */
    private static boolean stopWithin(DefaultMessageListenerContainer container, CachingConnectionFactory caching,
                                      Duration timeout) throws InterruptedException {
        Thread stopper = new Thread(() -> {
            container.shutdown();
            caching.destroy();
        }, "spring-shutdown");
        stopper.setDaemon(true);
        stopper.start();
        stopper.join(timeout.toMillis());
        return !stopper.isAlive();
    }
}
