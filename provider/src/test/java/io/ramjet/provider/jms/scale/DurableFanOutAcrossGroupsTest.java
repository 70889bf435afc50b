package io.ramjet.provider.jms.scale;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.embedded.EmbeddedCluster;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Durable subscribers of a topic that lives on every group of a cluster of two and of three
 * groups (one master each, one NameServer, on 127.0.0.1): each subscriber on a connection of its
 * own with a client id and a durable subscription, all created before a producer of another
 * connection sends persistent messages from several sessions, which spread over every group.
 * Every subscriber must receive every message exactly once.
 */
class DurableFanOutAcrossGroupsTest {

    private static final int MESSAGES = 200;
    private static final int SESSIONS = 4;
    private static final Duration DELIVERY = Duration.ofSeconds(15);

    @Test
    void oneDurableSubscriberOnTwoGroupsReceivesEveryMessageOnce() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(2)) {
            fanOut(cluster, 1, false);
        }
    }

    @Test
    void tenDurableAndSharedDurableSubscribersOnThreeGroupsReceiveEveryMessageOnce() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(3)) {
            fanOut(cluster, 10, false);
            fanOut(cluster, 3, true);
        }
    }

    /** Opens the subscribers, sends from several sessions, and checks each subscriber's count of each message. */
    private static void fanOut(EmbeddedCluster cluster, int subscribers, boolean shared) throws Exception {
        String topicName = "durablefan-" + UUID.randomUUID().toString().substring(0, 8);
        RamjetConnectionFactory factory = new RamjetConnectionFactory("ramjet://" + cluster.nameServerAddress());
        List<Connection> connections = new ArrayList<>();
        List<Map<String, AtomicInteger>> received = new ArrayList<>();
        try {
            for (int i = 0; i < subscribers; i++) {
                Connection c = factory.createConnection();
                connections.add(c);
                if (!shared) {
                    c.setClientID(topicName + "-" + i);
                }
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Topic topic = s.createTopic(topicName);
                MessageConsumer consumer = shared ? s.createSharedDurableConsumer(topic, "fanout" + i)
                        : s.createDurableConsumer(topic, "fanout");
                Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
                received.add(counts);
                consumer.setMessageListener(m -> {
                    try {
                        counts.computeIfAbsent(m.getStringProperty("id"), k -> new AtomicInteger()).incrementAndGet();
                    } catch (JMSException e) {
                        throw new IllegalStateException(e);
                    }
                });
                c.start();
            }
            try (Connection producing = factory.createConnection()) {
                List<MessageProducer> producers = new ArrayList<>();
                List<Session> sessions = new ArrayList<>();
                for (int i = 0; i < SESSIONS; i++) {
                    Session s = producing.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    MessageProducer p = s.createProducer(s.createTopic(topicName));
                    p.setDeliveryMode(DeliveryMode.PERSISTENT);
                    sessions.add(s);
                    producers.add(p);
                }
                for (int i = 0; i < MESSAGES; i++) {
                    Session s = sessions.get(i % SESSIONS);
                    jakarta.jms.TextMessage m = s.createTextMessage("m" + i);
                    m.setStringProperty("id", "m" + i);
                    producers.get(i % SESSIONS).send(m);
                }
            }
            try {
                await().atMost(DELIVERY).until(() -> received.stream().allMatch(r -> r.size() == MESSAGES));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                // fall through to the counts, which say what is missing
            }
            List<String> report = new ArrayList<>();
            for (int i = 0; i < subscribers; i++) {
                Map<String, AtomicInteger> r = received.get(i);
                long duplicated = r.values().stream().filter(n -> n.get() > 1).count();
                report.add("subscriber " + i + ": lost " + (MESSAGES - r.size()) + ", duplicated " + duplicated);
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < subscribers; i++) {
                expected.add("subscriber " + i + ": lost 0, duplicated 0");
            }
            assertEquals(expected, report, "on " + cluster.brokerCount() + " groups, " + subscribers
                    + (shared ? " shared" : "") + " durable subscribers");
        } finally {
            for (Connection c : connections) {
                c.close();
            }
        }
    }
}
