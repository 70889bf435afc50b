package io.ramjet.bench.jms;

import io.ramjet.bench.workload.FanOut;
import io.ramjet.bench.workload.Progress;
import io.ramjet.bench.workload.Rate;
import io.ramjet.bench.workload.Workloads;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A JMS fan-out: every subscriber on a connection of its own with a listener (durable: a client
 * ID and a durable subscription of its own, removed on close), the producer on another.
 */
final class JmsFanOut implements FanOut {

    private static final String SUBSCRIPTION = "fanout";

    private final String topic;
    private final int subscribers;
    private final boolean durable;
    private final List<Connection> connections = new ArrayList<>();
    private final List<Session> durableSessions = new ArrayList<>();
    private final List<MessageConsumer> durableConsumers = new ArrayList<>();
    private final AtomicLong delivered = new AtomicLong();
    private Session producerSession;
    private MessageProducer producer;

    private JmsFanOut(String topic, int subscribers, boolean durable) {
        this.topic = topic;
        this.subscribers = subscribers;
        this.durable = durable;
    }

    static JmsFanOut open(ConnectionFactory factory, String topic, int subscribers, boolean durable)
            throws JMSException {
        JmsFanOut f = new JmsFanOut(topic, subscribers, durable);
        try {
            for (int i = 0; i < subscribers; i++) {
                Connection c = factory.createConnection();
                f.connections.add(c);
                if (durable) {
                    c.setClientID(topic + "-" + i);
                }
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = durable ? s.createDurableConsumer(s.createTopic(topic), SUBSCRIPTION)
                        : s.createConsumer(s.createTopic(topic));
                consumer.setMessageListener(m -> f.delivered.incrementAndGet());
                if (durable) {
                    f.durableSessions.add(s);
                    f.durableConsumers.add(consumer);
                }
                c.start();
            }
            Connection pc = factory.createConnection();
            f.connections.add(pc);
            f.producerSession = pc.createSession(false, Session.AUTO_ACKNOWLEDGE);
            f.producer = f.producerSession.createProducer(f.producerSession.createTopic(topic));
            f.producer.setDeliveryMode(durable ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
            return f;
        } catch (JMSException | RuntimeException e) {
            f.closeConnections();
            throw e;
        }
    }

    @Override
    public Rate send(long count, int size) throws Exception {
        long target = delivered.get() + count * subscribers;
        byte[] body = new byte[size];
        JmsWorkloads.Window window = new JmsWorkloads.Window(Workloads.ASYNC_WINDOW);
        long start = System.nanoTime();
        for (long i = 0; i < count; i++) {
            window.acquire();
            producer.send(JmsWorkloads.bytes(producerSession, body), window);
        }
        window.awaitAll(topic);
        Progress.awaitCount(delivered, target, "fan-out on " + topic);
        return new Rate(count * subscribers, System.nanoTime() - start);
    }

    /** Removes the durable subscriptions, then closes every connection. */
    @Override
    public void close() throws JMSException {
        try {
            for (int i = 0; i < durableConsumers.size(); i++) {
                durableConsumers.get(i).close();
                durableSessions.get(i).unsubscribe(SUBSCRIPTION);
            }
        } finally {
            closeConnections();
        }
    }

    private void closeConnections() throws JMSException {
        for (Connection c : connections) {
            c.close();
        }
    }
}
