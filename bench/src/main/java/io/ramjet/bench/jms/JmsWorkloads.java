package io.ramjet.bench.jms;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;

/**
 * Workloads written against {@code jakarta.jms} only, so each provider runs the very same code.
 * Each returns messages per second.
 */
public final class JmsWorkloads {

    private JmsWorkloads() {
    }

    /** One producer sends {@code count} messages of {@code size} bytes to a queue. */
    public static double send(ConnectionFactory factory, String queue, int count, int size, int deliveryMode,
                              int commitEvery) throws JMSException {
        try (Connection c = factory.createConnection()) {
            boolean transacted = commitEvery > 0;
            Session s = c.createSession(transacted, transacted ? Session.SESSION_TRANSACTED : Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue(queue);
            MessageProducer p = s.createProducer(q);
            p.setDeliveryMode(deliveryMode);
            byte[] body = new byte[size];
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                BytesMessage m = s.createBytesMessage();
                m.writeBytes(body);
                p.send(m);
                if (transacted && (i + 1) % commitEvery == 0) {
                    s.commit();
                }
            }
            if (transacted) {
                s.commit();
            }
            return rate(count, System.nanoTime() - start);
        }
    }

    /** One consumer drains {@code count} messages from a queue. */
    public static double drain(ConnectionFactory factory, String queue, int count) throws JMSException {
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue(queue));
            c.start();
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                if (consumer.receive(30_000) == null) {
                    throw new JMSException("drain stalled after " + i + " of " + count + " messages");
                }
            }
            return rate(count, System.nanoTime() - start);
        }
    }

    public static double rate(int count, long nanos) {
        return count / (nanos / 1e9);
    }

    /** The delivery mode a workload name asks for. */
    public static int mode(boolean persistent) {
        return persistent ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT;
    }
}
