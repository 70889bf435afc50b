package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Message groups (the JMSXGroupID and JMSXGroupSeq properties of section 3.5.9, given meaning
 * as ActiveMQ Artemis and Classic do): a group's messages go to one consumer of a queue at a
 * time, in order; its consumer's close moves the group; a rolled-back message comes back before
 * the group's next one; JMSXGroupSeq = -1 ends a group. Rules a consumer can see, shared by both
 * providers.
 */
class MessageGroupTest {

    private static Message grouped(Session s, String group, int seq) throws JMSException {
        Message m = s.createTextMessage(group + "#" + seq);
        m.setStringProperty("JMSXGroupID", group);
        m.setIntProperty("JMSXGroupSeq", seq);
        return m;
    }

    private static void send(Session s, Queue q, String group, int... seqs) throws JMSException {
        MessageProducer p = s.createProducer(q);
        for (int seq : seqs) {
            p.send(grouped(s, group, seq));
        }
        p.close();
    }

    private static String text(Message m) throws JMSException {
        assertNotNull(m, "message must arrive");
        return ((TextMessage) m).getText();
    }

    @ProviderTest
    void aGroupsMessagesAllGoToTheConsumerThatTookItsFirst(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "group-one-consumer");
        MessageConsumer one = s.createConsumer(q);
        MessageConsumer two = jms.session().createConsumer(q);
        assertNull(one.receive(Jms.ABSENT_MS));
        assertNull(two.receive(Jms.ABSENT_MS));
        send(s, q, "order-17", 1);
        Message first = one.receive(Jms.RECEIVE_MS);
        MessageConsumer owner = first != null ? one : two;
        MessageConsumer other = first != null ? two : one;
        assertEquals("order-17#1", text(first != null ? first : two.receive(Jms.RECEIVE_MS)));
        send(s, q, "order-17", 2, 3, 4, 5, 6);
        for (int seq = 2; seq <= 6; seq++) {
            assertEquals("order-17#" + seq, text(owner.receive(Jms.RECEIVE_MS)));
        }
        assertNull(other.receive(Jms.ABSENT_MS), "no message of the group goes to the other consumer");
    }

    @ProviderTest
    void groupsSpreadOverConsumersAndEachStaysInOrder(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "group-spread");
        List<MessageConsumer> consumers = List.of(s.createConsumer(q), jms.session().createConsumer(q));
        for (MessageConsumer c : consumers) {
            assertNull(c.receive(Jms.ABSENT_MS));
        }
        MessageProducer p = s.createProducer(q);
        for (int seq = 1; seq <= 5; seq++) {
            for (int g = 0; g < 8; g++) {
                p.send(grouped(s, "g" + g, seq));
            }
        }
        Map<String, Integer> ownerOf = new HashMap<>();
        Map<String, Integer> lastSeq = new HashMap<>();
        int received = 0;
        boolean progress = true;
        while (received < 40 && progress) {
            progress = false;
            for (int c = 0; c < consumers.size(); c++) {
                Message m = consumers.get(c).receive(Jms.ABSENT_MS);
                if (m == null) {
                    continue;
                }
                progress = true;
                received++;
                String group = m.getStringProperty("JMSXGroupID");
                int seq = m.getIntProperty("JMSXGroupSeq");
                ownerOf.putIfAbsent(group, c);
                assertEquals(ownerOf.get(group), c, "group " + group + " stays with one consumer");
                assertEquals(lastSeq.getOrDefault(group, 0) + 1, seq, "group " + group + " in order");
                lastSeq.put(group, seq);
            }
        }
        assertEquals(40, received);
        assertEquals(Set.of(0, 1), Set.copyOf(ownerOf.values()), "both consumers get groups");
    }

    @ProviderTest
    void closingTheConsumerMovesItsGroupToAnotherInOrder(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "group-close");
        send(s, q, "order-17", 1, 2, 3, 4, 5);
        MessageConsumer first = s.createConsumer(q);
        assertEquals("order-17#1", text(first.receive(Jms.RECEIVE_MS)));
        assertEquals("order-17#2", text(first.receive(Jms.RECEIVE_MS)));
        MessageConsumer second = jms.session().createConsumer(q);
        assertNull(second.receive(Jms.ABSENT_MS), "the group stays with its open consumer");
        first.close();
        for (int seq = 3; seq <= 5; seq++) {
            assertEquals("order-17#" + seq, text(second.receive(Jms.RECEIVE_MS)));
        }
    }

    @ProviderTest
    void aRolledBackGroupMessageComesBackBeforeTheGroupsNext(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "group-rollback");
        send(s, q, "order-17", 1, 2, 3);
        Session tx = jms.connection().createSession(true, Session.SESSION_TRANSACTED);
        MessageConsumer consumer = tx.createConsumer(q);
        assertEquals("order-17#1", text(consumer.receive(Jms.RECEIVE_MS)));
        tx.rollback();
        Message again = consumer.receive(Jms.RECEIVE_MS);
        assertEquals("order-17#1", text(again));
        assertTrue(again.getJMSRedelivered());
        assertEquals("order-17#2", text(consumer.receive(Jms.RECEIVE_MS)));
        assertEquals("order-17#3", text(consumer.receive(Jms.RECEIVE_MS)));
        tx.commit();
    }

    @ProviderTest
    void sequenceMinusOneEndsTheGroupSoItsNextMessageMayGoToAnotherConsumer(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "group-end");
        Connection firstConnection = jms.connection();
        MessageConsumer first = firstConnection.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(q);
        send(s, q, "order-17", 1, -1);
        assertEquals("order-17#1", text(first.receive(Jms.RECEIVE_MS)));
        assertEquals("order-17#-1", text(first.receive(Jms.RECEIVE_MS)));
        firstConnection.stop();
        MessageConsumer second = jms.session().createConsumer(q);
        send(s, q, "order-17", 1);
        assertEquals("order-17#1", text(second.receive(Jms.RECEIVE_MS)));
    }
}
