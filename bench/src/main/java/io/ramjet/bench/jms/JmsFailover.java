package io.ramjet.bench.jms;

import io.ramjet.bench.workload.Failover;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Failover} through JMS: one producer thread, one connection at a time; a send that throws
 * an {@link IllegalStateException} (a closed connection) is retried on a new connection.
 */
final class JmsFailover implements Failover {

    private static final Logger LOG = LoggerFactory.getLogger(JmsFailover.class);
    private static final int BODY = 1024;
    /** How long {@link #close} waits for a producer blocked in a send. */
    private static final Duration CLOSE_PATIENCE = Duration.ofSeconds(10);

    private final ConnectionFactory factory;
    private final String queue;
    private final CompletableFuture<Outcome> outcome = new CompletableFuture<>();
    private volatile long killedAt;
    private volatile boolean killed;
    private volatile long exitedAt;
    private volatile boolean exited;
    private volatile boolean closed;
    private CountDownLatch sent;
    private Thread thread;

    JmsFailover(ConnectionFactory factory, String queue) {
        this.factory = factory;
        this.queue = queue;
    }

    @Override
    public void start(int sends) throws Exception {
        if (thread != null) {
            throw new java.lang.IllegalStateException("started already");
        }
        sent = new CountDownLatch(sends);
        thread = new Thread(this::produce, "failover-producer");
        thread.start();
        while (!sent.await(100, TimeUnit.MILLISECONDS)) {
            if (outcome.isDone()) {
                outcome.get();
                throw new java.lang.IllegalStateException("the producer ended before " + sends + " sends");
            }
        }
    }

    @Override
    public void killing() {
        killedAt = System.nanoTime();
        killed = true;
    }

    @Override
    public Outcome exited(Duration patience) throws Exception {
        if (!killed) {
            throw new java.lang.IllegalStateException("no kill was noted");
        }
        exitedAt = System.nanoTime();
        exited = true;
        long left = patience.toNanos() - (System.nanoTime() - killedAt);
        try {
            return outcome.get(Math.max(0, left), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new TimeoutException("no successful send within " + patience + " of the kill");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /** Sends until closed or until the first send begun after the exit succeeds. */
    private void produce() {
        Producer producer = null;
        int failed = 0;
        int connections = 0;
        try {
            while (!closed) {
                boolean afterExit = exited;
                long began = System.nanoTime();
                afterExit = afterExit && began - exitedAt > 0;
                try {
                    if (producer == null) {
                        producer = new Producer(factory, queue);
                        if (killed) {
                            connections++;
                        }
                    }
                    producer.send();
                    if (afterExit) {
                        outcome.complete(new Outcome((System.nanoTime() - killedAt) / 1_000_000, failed, connections));
                        return;
                    }
                    sent.countDown();
                } catch (JMSException e) {
                    if (!killed) {
                        outcome.completeExceptionally(e);
                        return;
                    }
                    failed++;
                    LOG.info("send failed after the kill: {}", e.toString());
                    if (e instanceof IllegalStateException && producer != null) {
                        producer.close();
                        producer = null;
                    }
                    LockSupport.parkNanos(RETRY_PAUSE.toNanos());
                }
            }
        } catch (RuntimeException e) {
            outcome.completeExceptionally(e);
        } finally {
            if (producer != null) {
                producer.close();
            }
            outcome.completeExceptionally(new java.lang.IllegalStateException("closed before a send succeeded"));
        }
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        if (thread != null) {
            thread.join(CLOSE_PATIENCE.toMillis());
            if (thread.isAlive()) {
                LOG.warn("the failover producer is still in a send {} after close", CLOSE_PATIENCE);
            }
        }
    }

    /** A connection, session and producer of persistent 1 KiB messages to one queue. */
    private static final class Producer {

        private final Connection connection;
        private final Session session;
        private final MessageProducer producer;
        private final byte[] body = new byte[BODY];

        Producer(ConnectionFactory factory, String queue) throws JMSException {
            connection = factory.createConnection();
            try {
                session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                producer = session.createProducer(session.createQueue(queue));
                producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            } catch (JMSException | RuntimeException e) {
                connection.close();
                throw e;
            }
        }

        void send() throws JMSException {
            producer.send(JmsWorkloads.bytes(session, body));
        }

        void close() {
            try {
                connection.close();
            } catch (JMSException e) {
                LOG.debug("closing the producer's connection failed", e);
            }
        }
    }
}
