package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Message groups (JMSXGroupID) on a queue with competing consumers: one consumer at a time per
 * group, in JMSXGroupSeq order, spread over the consumers; a group moves when its consumer
 * closes, after a rollback or recover() its messages come back first, and JMSXGroupSeq = -1
 * closes it.
 */
class MessageGroupsTest extends BrokerTestSupport {

    private static final long LONG = 30_000;

    /** What one consumer saw: each delivery in order as (group, seq), appended while it holds the message. */
    private record Seen(String consumer, String group, int seq) {
    }

    private static void sendGroups(Connection connection, Queue queue, int groups, int perGroup) throws JMSException {
        // two sessions of one connection take turns: a group's queue does not depend on the session
        Session[] sessions = {connection.createSession(false, Session.AUTO_ACKNOWLEDGE),
                connection.createSession(false, Session.AUTO_ACKNOWLEDGE)};
        MessageProducer[] producers = {sessions[0].createProducer(queue), sessions[1].createProducer(queue)};
        int n = 0;
        for (int seq = 1; seq <= perGroup; seq++) {
            for (int g = 0; g < groups; g++) {
                Message m = sessions[n % 2].createTextMessage("g" + g + "#" + seq);
                m.setStringProperty("JMSXGroupID", "g" + g);
                m.setIntProperty("JMSXGroupSeq", seq);
                producers[n++ % 2].send(m);
            }
        }
        for (Session s : sessions) {
            s.close();
        }
    }

    private static Seen seen(String consumer, Message m) throws JMSException {
        return new Seen(consumer, m.getStringProperty("JMSXGroupID"), m.getIntProperty("JMSXGroupSeq"));
    }

    /** Every group arrived exactly once per seq, in seq order, in the order deliveries were recorded. */
    private static void assertInOrderAndComplete(List<Seen> log, int groups, int perGroup) {
        Map<String, Integer> last = new HashMap<>();
        for (Seen s : log) {
            int expected = last.getOrDefault(s.group(), 0) + 1;
            assertEquals(expected, s.seq(), "group " + s.group() + " out of order or duplicated at " + s);
            last.put(s.group(), s.seq());
        }
        assertEquals(groups, last.size());
        last.forEach((g, seq) -> assertEquals(perGroup, seq, "group " + g + " incomplete"));
    }

    @Test
    void fourCompetingConsumersEachTakeWholeGroupsInOrder() throws Exception {
        int groups = 100, perGroup = 100, total = groups * perGroup;
        Queue queue;
        try (Connection producer = connect()) {
            queue = producer.createSession(false, Session.AUTO_ACKNOWLEDGE).createQueue(unique("groups"));
            sendGroups(producer, queue, groups, perGroup);
        }
        List<Seen> log = new ArrayList<>();
        Map<String, String> inHand = new ConcurrentHashMap<>();
        AtomicBoolean overlap = new AtomicBoolean();
        CountDownLatch all = new CountDownLatch(total);
        List<Connection> connections = new ArrayList<>();
        List<Thread> receivers = new ArrayList<>();
        try {
            for (int c = 0; c < 4; c++) {
                String name = "c" + c;
                Connection connection = factory().createConnection();
                connections.add(connection);
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = session.createConsumer(queue);
                java.util.function.Consumer<Message> handle = m -> {
                    try {
                        Seen s = seen(name, m);
                        String other = inHand.putIfAbsent(s.group(), name);
                        if (other != null) {
                            overlap.set(true);
                        }
                        synchronized (log) {
                            log.add(s);
                        }
                        inHand.remove(s.group(), name);
                        all.countDown();
                    } catch (JMSException e) {
                        throw new IllegalStateException(e);
                    }
                };
                if (c % 2 == 0) {
                    consumer.setMessageListener(handle::accept);
                } else {
                    Thread t = new Thread(() -> {
                        try {
                            Message m;
                            while ((m = consumer.receive(SHORT * 10)) != null || all.getCount() > 0) {
                                if (m != null) {
                                    handle.accept(m);
                                }
                            }
                        } catch (JMSException | IllegalStateException closed) {
                            // the connection closed at the end of the test
                        }
                    }, "receiver-" + name);
                    receivers.add(t);
                }
            }
            connections.forEach(this::start);
            receivers.forEach(Thread::start);
            boolean done = all.await(LONG, TimeUnit.MILLISECONDS);
            synchronized (log) {
                assertTrue(done, "received " + log.size() + " of " + total + ", by consumer "
                        + log.stream().collect(java.util.stream.Collectors.groupingBy(Seen::consumer,
                                java.util.stream.Collectors.counting())));
            }
        } finally {
            for (Connection connection : connections) {
                connection.close();
            }
            for (Thread t : receivers) {
                t.join(TIMEOUT);
            }
        }
        assertFalse(overlap.get(), "two consumers held messages of one group at once");
        assertInOrderAndComplete(log, groups, perGroup);
        Map<String, Set<String>> consumersOfGroup = new HashMap<>();
        for (Seen s : log) {
            consumersOfGroup.computeIfAbsent(s.group(), g -> new HashSet<>()).add(s.consumer());
        }
        consumersOfGroup.forEach((g, cs) -> assertEquals(1, cs.size(), "group " + g + " went to " + cs));
        Set<String> owners = new HashSet<>();
        consumersOfGroup.values().forEach(owners::addAll);
        assertEquals(Set.of("c0", "c1", "c2", "c3"), owners, "every consumer gets groups");
    }

    private void start(Connection connection) {
        try {
            connection.start();
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aClosedConsumersGroupsMoveInOrderWithNothingLostOrDuplicated() throws Exception {
        int groups = 10, perGroup = 50, total = groups * perGroup;
        try (Connection a = connect(); Connection b = connect()) {
            Session sa = a.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue queue = sa.createQueue(unique("groups-close"));
            sendGroups(a, queue, groups, perGroup);
            Session sb = b.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer ca = sa.createConsumer(queue);
            MessageConsumer cb = sb.createConsumer(queue);
            List<Seen> log = new ArrayList<>();
            Set<String> groupsOfA = new HashSet<>();
            Message m;
            for (int i = 0; i < total / 4 && (m = ca.receive(TIMEOUT)) != null; i++) {
                log.add(seen("a", m));
                groupsOfA.add(m.getStringProperty("JMSXGroupID"));
            }
            ca.close();
            while (log.size() < total && (m = cb.receive(TIMEOUT)) != null) {
                log.add(seen("b", m));
            }
            assertNull(cb.receive(SHORT), "nothing duplicated");
            assertFalse(groupsOfA.isEmpty());
            assertInOrderAndComplete(log, groups, perGroup);
        }
    }

    /** A new queue holding one group of {@code count} messages, JMSXGroupSeq 1 to {@code count}. */
    static Queue queueWithGroup(Connection connection, String name, int count) throws JMSException {
        Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = s.createQueue(unique(name));
        MessageProducer p = s.createProducer(queue);
        for (int seq = 1; seq <= count; seq++) {
            Message m = s.createTextMessage("m" + seq);
            m.setStringProperty("JMSXGroupID", "order-17");
            m.setIntProperty("JMSXGroupSeq", seq);
            p.send(m);
        }
        s.close();
        return queue;
    }

    @Test
    void aRolledBackGroupMessageComesBackBeforeTheGroupsNextAndToNoOtherConsumer() throws Exception {
        try (Connection a = connect(); Connection b = connect()) {
            Queue queue = queueWithGroup(a, "groups-rollback", 3);
            Session sa = a.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer ca = sa.createConsumer(queue);
            assertEquals(1, ca.receive(TIMEOUT).getIntProperty("JMSXGroupSeq"));
            // b's consumer comes once the group is a's: created beside a's, either could take it first
            MessageConsumer cb = b.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(queue);
            assertNull(cb.receive(SHORT), "the group is a's: its next message waits");
            sa.rollback();
            Message again = ca.receive(TIMEOUT);
            assertEquals(1, again.getIntProperty("JMSXGroupSeq"));
            assertTrue(again.getJMSRedelivered());
            assertEquals(2, ca.receive(TIMEOUT).getIntProperty("JMSXGroupSeq"));
            assertEquals(3, ca.receive(TIMEOUT).getIntProperty("JMSXGroupSeq"));
            sa.commit();
            assertNull(cb.receive(SHORT));
        }
    }

    @Test
    void aRecoveredGroupMessageComesBackBeforeTheGroupsNext() throws Exception {
        try (Connection a = connect(); Connection b = connect()) {
            Queue queue = queueWithGroup(a, "groups-recover", 3);
            Session sa = a.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer ca = sa.createConsumer(queue);
            assertEquals(1, ca.receive(TIMEOUT).getIntProperty("JMSXGroupSeq"));
            MessageConsumer cb = b.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(queue);
            assertEquals(2, ca.receive(TIMEOUT).getIntProperty("JMSXGroupSeq"));
            sa.recover();
            assertNull(cb.receive(SHORT), "the group stays a's");
            Message again = ca.receive(TIMEOUT);
            assertEquals(1, again.getIntProperty("JMSXGroupSeq"));
            assertTrue(again.getJMSRedelivered());
            assertEquals(2, ca.receive(TIMEOUT).getIntProperty("JMSXGroupSeq"));
            Message third = ca.receive(TIMEOUT);
            assertEquals(3, third.getIntProperty("JMSXGroupSeq"));
            third.acknowledge();
        }
    }

    @Test
    void sequenceMinusOneClosesTheGroupSoItsNextMessageMayGoToAnotherConsumer() throws Exception {
        try (Connection a = connect(); Connection b = connect(); Connection producer = connect()) {
            Session ps = producer.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue queue = ps.createQueue(unique("groups-close-seq"));
            MessageProducer p = ps.createProducer(queue);
            // CLIENT_ACKNOWLEDGE: acknowledge() returns once the broker has the acknowledgement
            MessageConsumer ca = a.createSession(false, Session.CLIENT_ACKNOWLEDGE).createConsumer(queue);
            p.send(grouped(ps, "first", 1));
            assertEquals("first", ca.receive(TIMEOUT).getStringProperty("text"));
            // b's consumer comes once the group is a's: created beside a's, either could take it first
            MessageConsumer cb = b.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(queue);
            a.stop();
            p.send(grouped(ps, "second", 2));
            assertNull(cb.receive(SHORT), "an open group stays with its consumer, even a stopped one");
            a.start();
            assertEquals("second", ca.receive(TIMEOUT).getStringProperty("text"));
            p.send(grouped(ps, "last", -1));
            Message last = ca.receive(TIMEOUT);
            assertEquals("last", last.getStringProperty("text"));
            a.stop();
            last.acknowledge();
            p.send(grouped(ps, "reopened", 1));
            Message reopened = cb.receive(TIMEOUT);
            assertNotNull(reopened, "the closed group's next message went to the other consumer");
            assertEquals("reopened", reopened.getStringProperty("text"));
        }
    }

    private static Message grouped(Session s, String text, int seq) throws JMSException {
        Message m = s.createMessage();
        m.setStringProperty("text", text);
        m.setStringProperty("JMSXGroupID", "order-17");
        m.setIntProperty("JMSXGroupSeq", seq);
        return m;
    }
}
