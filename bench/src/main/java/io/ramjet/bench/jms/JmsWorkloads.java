package io.ramjet.bench.jms;

import io.ramjet.bench.workload.Acknowledgement;
import io.ramjet.bench.workload.Failover;
import io.ramjet.bench.workload.FanOut;
import io.ramjet.bench.workload.Parallel;
import io.ramjet.bench.workload.Progress;
import io.ramjet.bench.workload.Rate;
import io.ramjet.bench.workload.SelectorData;
import io.ramjet.bench.workload.SendSlots;
import io.ramjet.bench.workload.Workloads;
import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The workloads written against {@code jakarta.jms} only, so Ramjet and Artemis run the very
 * same code. Every producer and consumer has a connection of its own; bodies are
 * {@link BytesMessage}s of zero bytes but for their size.
 */
public final class JmsWorkloads implements Workloads {

    private final ConnectionFactory factory;
    private final ConnectionFactory clientAcknowledgeFactory;
    private final StallProbe probe;
    private final int producers;
    private final int consumers;

    /** Every connection from {@code factory}; a stalled drain says nothing more than its counts. */
    public JmsWorkloads(ConnectionFactory factory, int producers, int consumers) {
        this(factory, factory, StallProbe.NONE, producers, consumers);
    }

    /**
     * The CLIENT_ACKNOWLEDGE drain's connections from {@code clientAcknowledgeFactory} (one whose
     * {@code acknowledge()} returns once the broker has the acknowledgement durable, where the
     * product's default does not wait), every other connection from {@code factory}; a stalled
     * drain's error carries what {@code probe} says of its consumer and the broker.
     */
    public JmsWorkloads(ConnectionFactory factory, ConnectionFactory clientAcknowledgeFactory, StallProbe probe,
                        int producers, int consumers) {
        this.probe = probe;
        this.factory = factory;
        this.clientAcknowledgeFactory = clientAcknowledgeFactory;
        this.producers = producers;
        this.consumers = consumers;
    }

    @Override
    public Rate send(String queue, long count, int size, boolean persistent) throws Exception {
        return send(queue, count, size, persistent, producers);
    }

    @Override
    public Rate send(String queue, long count, int size, boolean persistent, int producers) throws Exception {
        return Parallel.run(producers, index -> {
            Connection c = factory.createConnection();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.setDeliveryMode(persistent ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
            long n = Parallel.share(count, producers, index);
            byte[] body = new byte[size];
            return Parallel.Worker.of(c, () -> {
                long sent = 0;
                while (sent < n) {
                    p.send(bytes(s, body));
                    sent++;
                }
                return sent;
            });
        });
    }

    @Override
    public Rate drain(String queue, long count, Acknowledgement ack) throws Exception {
        return drain(queue, count, ack, consumers);
    }

    @Override
    public Rate drain(String queue, long count, Acknowledgement ack, int consumers) throws Exception {
        AtomicLong received = new AtomicLong();
        return Parallel.run(consumers, index -> {
            Connection c = (ack == Acknowledgement.CLIENT ? clientAcknowledgeFactory : factory).createConnection();
            Session s = ack == Acknowledgement.TRANSACTED ? c.createSession(true, Session.SESSION_TRANSACTED)
                    : c.createSession(false, switch (ack) {
                        case DUPS_OK -> Session.DUPS_OK_ACKNOWLEDGE;
                        case CLIENT -> Session.CLIENT_ACKNOWLEDGE;
                        default -> Session.AUTO_ACKNOWLEDGE;
                    });
            MessageConsumer consumer = s.createConsumer(s.createQueue(queue));
            return Parallel.Worker.of(c, () -> {
                c.start();
                long mine = 0;
                long lastProgress = System.nanoTime();
                while (received.get() < count) {
                    Message m = consumer.receive(100);
                    if (m != null) {
                        received.incrementAndGet();
                        mine++;
                        lastProgress = System.nanoTime();
                        if (ack == Acknowledgement.CLIENT) {
                            m.acknowledge();
                        } else if (ack == Acknowledgement.TRANSACTED && mine % Acknowledgement.COMMIT_EVERY == 0) {
                            s.commit();
                        }
                    } else if (System.nanoTime() - lastProgress > Progress.STALL_NANOS) {
                        throw new JMSException("drain of " + queue + " stalled after " + received.get() + " of "
                                + count + " messages" + probe.explain(queue, consumer));
                    }
                }
                if (ack == Acknowledgement.TRANSACTED && mine % Acknowledgement.COMMIT_EVERY != 0) {
                    s.commit();
                }
                return mine;
            });
        });
    }

    @Override
    public AutoCloseable openConsumers(String queue, int connections) throws JMSException {
        List<Connection> open = new ArrayList<>();
        AutoCloseable all = () -> {
            for (Connection c : open) {
                c.close();
            }
        };
        try {
            for (int i = 0; i < connections; i++) {
                Connection c = factory.createConnection();
                open.add(c);
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                s.createConsumer(s.createQueue(queue));
                c.start();
            }
        } catch (JMSException | RuntimeException e) {
            for (Connection c : open) {
                c.close();
            }
            throw e;
        }
        return all;
    }

    @Override
    public Rate transactedSend(String queue, long count, int size, int commitEvery) throws Exception {
        return Parallel.run(1, index -> {
            Connection c = factory.createConnection();
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            byte[] body = new byte[size];
            return Parallel.Worker.of(c, () -> {
                long sent = 0;
                while (sent < count) {
                    for (int i = 0; i < commitEvery && sent < count; i++) {
                        p.send(bytes(s, body));
                        sent++;
                    }
                    s.commit();
                }
                return sent;
            });
        });
    }

    @Override
    public Duration largeTransactionCommit(String queue, long count, int size) throws Exception {
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            byte[] body = new byte[size];
            for (long i = 0; i < count; i++) {
                p.send(bytes(s, body));
            }
            long start = System.nanoTime();
            s.commit();
            return Duration.ofNanos(System.nanoTime() - start);
        }
    }

    @Override
    public Rate sendAsync(String queue, long count, int size) throws Exception {
        return Parallel.run(producers, index -> {
            Connection c = factory.createConnection();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            long n = Parallel.share(count, producers, index);
            byte[] body = new byte[size];
            return Parallel.Worker.of(c, () -> {
                Window window = new Window(ASYNC_WINDOW);
                long sent = 0;
                while (sent < n) {
                    window.acquire();
                    p.send(bytes(s, body), window);
                    sent++;
                }
                window.awaitAll(queue);
                return sent;
            });
        });
    }

    @Override
    public Histogram latency(String queue, int size, int perSecond, Duration duration) throws Exception {
        Histogram histogram = new Histogram(TimeUnit.HOURS.toMicros(1), 3);
        AtomicLong received = new AtomicLong();
        AtomicReference<Exception> failure = new AtomicReference<>();
        long period = TimeUnit.SECONDS.toNanos(1) / perSecond;
        try (Connection consumerConnection = factory.createConnection();
             Connection producerConnection = factory.createConnection()) {
            Session cs = consumerConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = cs.createConsumer(cs.createQueue(queue));
            AtomicLong warmupEnd = new AtomicLong(Long.MAX_VALUE);
            consumer.setMessageListener(m -> {
                try {
                    long now = System.nanoTime();
                    long due = m.getLongProperty("due");
                    if (due >= warmupEnd.get()) {
                        histogram.recordValue(Math.max(0, (now - due) / 1_000));
                    }
                } catch (JMSException | RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
                received.incrementAndGet();
            });
            consumerConnection.start();
            Session ps = producerConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = ps.createProducer(ps.createQueue(queue));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            byte[] body = new byte[size];
            Window window = new Window(10 * ASYNC_WINDOW);
            long start = System.nanoTime();
            warmupEnd.set(start + duration.toNanos() / 10);
            long end = start + duration.toNanos();
            long sent = 0;
            for (long due = start; due < end; due = start + sent * period) {
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                BytesMessage m = bytes(ps, body);
                m.setLongProperty("due", due);
                window.acquire();
                p.send(m, window);
                sent++;
            }
            window.awaitAll(queue);
            Progress.awaitCount(received, sent, "latency consumer of " + queue);
            if (failure.get() != null) {
                throw failure.get();
            }
            return histogram;
        }
    }

    @Override
    public Duration selective(String queue, long count, int size, boolean tagged) throws Exception {
        SelectorData data = new SelectorData(count);
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            byte[] body = new byte[size];
            Window window = new Window(ASYNC_WINDOW);
            for (long i = 0; i < count; i++) {
                BytesMessage m = bytes(s, body);
                m.setStringProperty("color", data.color(i));
                m.setLongProperty("n", data.n(i));
                window.acquire();
                p.send(m, window);
            }
            window.awaitAll(queue);
            c.start();
            long expected = data.matches(tagged);
            long start = System.nanoTime();
            Duration took;
            try (MessageConsumer selecting = s.createConsumer(s.createQueue(queue), data.selector(tagged))) {
                receive(selecting, expected, queue + " [" + data.selector(tagged) + "]");
                took = Duration.ofNanos(System.nanoTime() - start);
            }
            try (MessageConsumer rest = s.createConsumer(s.createQueue(queue))) {
                receive(rest, count - expected, queue + " (the rest)");
            }
            return took;
        }
    }

    @Override
    public FanOut openFanOut(String topic, int subscribers, boolean durable) throws JMSException {
        return JmsFanOut.open(factory, topic, subscribers, durable);
    }

    @Override
    public Failover failover(String queue) {
        return new JmsFailover(factory, queue);
    }

    @Override
    public Rate orderedGroups(String queue, int groups, long perGroup, int size, int consumerCount) throws Exception {
        return JmsOrderedGroups.run(factory, queue, groups, perGroup, size, consumerCount);
    }

    @Override
    public Rate manyDestinations(String prefix, int count, int size) throws Exception {
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(null);
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            byte[] body = new byte[size];
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                p.send(s.createQueue(prefix + i), bytes(s, body));
            }
            return new Rate(count, System.nanoTime() - start);
        }
    }

    @Override
    public Rate largeSend(String queue, long count, int size) throws Exception {
        LargeBodies api = LargeBodies.of(factory);
        return oneSession(s -> {
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            return () -> {
                for (long i = 0; i < count; i++) {
                    BytesMessage m = s.createBytesMessage();
                    m.setObjectProperty(api.inputStream(), new LargeBodies.Zeros(size));
                    p.send(m);
                }
                return count;
            };
        });
    }

    @Override
    public Rate largeDrain(String queue, long count, int size) throws Exception {
        LargeBodies api = LargeBodies.of(factory);
        return oneSession(s -> {
            MessageConsumer consumer = s.createConsumer(s.createQueue(queue));
            return () -> {
                for (long i = 0; i < count; i++) {
                    Message m = consumer.receive(Progress.STALL_NANOS / 1_000_000);
                    if (m == null) {
                        throw new JMSException("drain of " + queue + " stalled after " + i + " of " + count
                                + " messages" + probe.explain(queue, consumer));
                    }
                    LargeBodies.Counter body = new LargeBodies.Counter();
                    m.setObjectProperty(api.saveStream(), body);
                    if (body.count() != size) {
                        throw new JMSException("a body of " + body.count() + " bytes on " + queue + ", " + size
                                + " sent");
                    }
                }
                return count;
            };
        });
    }

    /** What one thread does with one started connection's AUTO_ACKNOWLEDGE session, prepared untimed. */
    @FunctionalInterface
    private interface SessionWork {
        Parallel.Worker prepare(Session s) throws Exception;
    }

    /**
     * Runs {@code work} on one thread, on a connection of its own, started when the timed part
     * begins (as the drains' are) and closed after.
     */
    private Rate oneSession(SessionWork work) throws Exception {
        return Parallel.run(1, index -> {
            Connection c = factory.createConnection();
            try {
                Parallel.Worker body = work.prepare(c.createSession(false, Session.AUTO_ACKNOWLEDGE));
                return Parallel.Worker.of(c, () -> {
                    c.start();
                    return body.run();
                });
            } catch (Exception | Error e) {
                c.close();
                throw e;
            }
        });
    }

    @Override
    public Histogram temporaryQueues(int count) throws Exception {
        Histogram h = new Histogram(TimeUnit.SECONDS.toMicros(10), 3);
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            for (int i = 0; i < count; i++) {
                long start = System.nanoTime();
                s.createTemporaryQueue().delete();
                h.recordValue(Math.min(h.getHighestTrackableValue(), (System.nanoTime() - start) / 1_000));
            }
        }
        return h;
    }

    @Override
    public void close() throws Exception {
        if (factory instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }

    static BytesMessage bytes(Session s, byte[] body) throws JMSException {
        BytesMessage m = s.createBytesMessage();
        m.writeBytes(body);
        return m;
    }

    private static void receive(MessageConsumer consumer, long count, String what) throws JMSException {
        long lastProgress = System.nanoTime();
        for (long got = 0; got < count; ) {
            if (consumer.receive(100) != null) {
                got++;
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > Progress.STALL_NANOS) {
                throw new JMSException("receiving from " + what + " stalled after " + got + " of " + count);
            }
        }
    }

    /** {@link SendSlots} as a completion listener. */
    public static final class Window implements CompletionListener {
        private final SendSlots slots;

        public Window(int size) {
            this.slots = new SendSlots(size);
        }

        public void acquire() throws Exception {
            slots.acquire();
        }

        public void awaitAll(String what) throws Exception {
            slots.awaitAll(what);
        }

        @Override
        public void onCompletion(Message message) {
            slots.confirmed();
        }

        @Override
        public void onException(Message message, Exception exception) {
            slots.failed(exception);
        }
    }
}
