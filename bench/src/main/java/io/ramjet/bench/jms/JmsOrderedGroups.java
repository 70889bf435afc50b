package io.ramjet.bench.jms;

import io.ramjet.bench.workload.GroupOrder;
import io.ramjet.bench.workload.Progress;
import io.ramjet.bench.workload.Rate;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.List;

/**
 * Ordered consumption with message groups on JMS (Ramjet and Artemis alike): a backlog of
 * {@code groups} x {@code perGroup} persistent messages with {@code JMSXGroupID} and
 * {@code JMSXGroupSeq}, stored first, then consumed by competing listeners (a connection each);
 * the rate is from the listeners' start to the last message, and every group must arrive in order.
 */
final class JmsOrderedGroups {

    private static final int ASYNC_WINDOW = 1_000;

    private JmsOrderedGroups() {
    }

    static Rate run(ConnectionFactory factory, String queue, int groups, long perGroup, int size, int consumers)
            throws Exception {
        store(factory, queue, groups, perGroup, size);
        GroupOrder order = new GroupOrder();
        List<Connection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < consumers; i++) {
                Connection c = factory.createConnection();
                connections.add(c);
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                s.createConsumer(s.createQueue(queue)).setMessageListener(m -> {
                    try {
                        order.seen(m.getStringProperty("JMSXGroupID"), m.getIntProperty("JMSXGroupSeq"));
                    } catch (JMSException e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
            long start = System.nanoTime();
            for (Connection c : connections) {
                c.start();
            }
            long total = groups * perGroup;
            Progress.awaitCount(order.delivered(), total, "ordered groups on " + queue);
            Rate rate = new Rate(total, System.nanoTime() - start);
            order.check(queue);
            return rate;
        } finally {
            for (Connection c : connections) {
                c.close();
            }
        }
    }

    /** Sends the backlog asynchronously, groups interleaved (seq 1 of every group, then seq 2 ...). */
    private static void store(ConnectionFactory factory, String queue, int groups, long perGroup, int size)
            throws Exception {
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            byte[] body = new byte[size];
            JmsWorkloads.Window window = new JmsWorkloads.Window(ASYNC_WINDOW);
            for (int seq = 1; seq <= perGroup; seq++) {
                for (int g = 0; g < groups; g++) {
                    BytesMessage m = s.createBytesMessage();
                    m.writeBytes(body);
                    m.setStringProperty("JMSXGroupID", "group-" + g);
                    m.setIntProperty("JMSXGroupSeq", seq);
                    window.acquire();
                    p.send(m, window);
                }
            }
            window.awaitAll(queue);
        }
    }
}
