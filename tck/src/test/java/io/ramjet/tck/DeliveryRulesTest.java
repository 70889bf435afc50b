package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicSession;
import jakarta.jms.TopicSubscriber;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Who gets a message: a stopped connection takes nothing (section 6.1.5), ready consumers of a
 * queue or a shared subscription take successive messages in turn, recover in AUTO mode from a
 * listener (6.2.11), the domain-specific sessions (4.11) and unsubscribe after a transacted
 * durable subscriber closes (8.3).
 */
class DeliveryRulesTest {

    private static String text(Message m) throws JMSException {
        assertNotNull(m, "message must arrive");
        return ((TextMessage) m).getText();
    }

    private static void send(Session s, jakarta.jms.Destination d, String... texts) throws JMSException {
        MessageProducer p = s.createProducer(d);
        for (String t : texts) {
            p.send(s.createTextMessage(t));
        }
    }

    private Connection unstarted(Jms jms) throws JMSException {
        return jms.closeLater(jms.factory().createConnection());
    }

    @ProviderTest
    void aConsumerOfAConnectionNeverStartedTakesNothingFromAStartedOne(Jms jms) throws Exception {
        Session idle = unstarted(jms).createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = jms.queue(idle, "never-started");
        idle.createConsumer(q);
        Session live = jms.session();
        MessageConsumer reader = live.createConsumer(q);
        send(live, q, "m");
        assertEquals("m", text(reader.receive(Jms.RECEIVE_MS)));
    }

    @ProviderTest
    void aStoppedConnectionGivesBackWhatItsConsumerWouldHaveTaken(Jms jms) throws Exception {
        Connection stopping = unstarted(jms);
        Session s = stopping.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = jms.queue(s, "stopped");
        MessageConsumer first = s.createConsumer(q);
        stopping.start();
        send(s, q, "a");
        assertEquals("a", text(first.receive(Jms.RECEIVE_MS)));
        stopping.stop();
        Session live = jms.session();
        MessageConsumer reader = live.createConsumer(q);
        send(live, q, "b", "c");
        assertEquals("b", text(reader.receive(Jms.RECEIVE_MS)));
        assertEquals("c", text(reader.receive(Jms.RECEIVE_MS)));
        assertNull(first.receiveNoWait(), "a stopped connection delivers nothing");
    }

    @ProviderTest
    void readyConsumersOfAQueueTakeSuccessiveMessagesInTurn(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "turns");
        MessageConsumer one = s.createConsumer(q);
        MessageConsumer two = jms.session().createConsumer(q);
        assertNull(one.receive(Jms.ABSENT_MS));
        assertNull(two.receive(Jms.ABSENT_MS));
        send(s, q, "a", "b");
        assertNotNull(one.receive(Jms.RECEIVE_MS), "the first consumer gets one");
        assertNotNull(two.receive(Jms.RECEIVE_MS), "the second gets the other");
    }

    @ProviderTest
    void messagesCommittedTogetherAreSharedByTheReadyConsumersOfASharedSubscription(Jms jms) throws Exception {
        Session s = jms.session();
        Topic t = jms.topic(s, "shared-turns");
        String name = jms.name("sub");
        MessageConsumer one = s.createSharedConsumer(t, name);
        MessageConsumer two = jms.session().createSharedConsumer(t, name);
        assertNull(one.receive(Jms.ABSENT_MS));
        assertNull(two.receive(Jms.ABSENT_MS));
        Session tx = jms.connection().createSession(true, Session.SESSION_TRANSACTED);
        send(tx, t, "a", "b");
        tx.commit();
        assertNotNull(one.receive(Jms.RECEIVE_MS), "the first consumer gets one");
        assertNotNull(two.receive(Jms.RECEIVE_MS), "the second gets the other");
    }

    @ProviderTest
    void recoverFromAListenerInAutoModeRedeliversTheCurrentMessage(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "auto-recover");
        send(s, q, "m");
        List<String> seen = new ArrayList<>();
        CountDownLatch twice = new CountDownLatch(2);
        s.createConsumer(q).setMessageListener(m -> {
            try {
                seen.add(text(m) + (m.getJMSRedelivered() ? "*" : ""));
                if (seen.size() == 1) {
                    s.recover();
                }
            } catch (JMSException e) {
                seen.add(e.toString());
            }
            twice.countDown();
        });
        assertTrue(twice.await(Jms.RECEIVE_MS, TimeUnit.MILLISECONDS), "delivered again: " + seen);
        assertEquals(List.of("m", "m*"), seen);
    }

    @ProviderTest
    void aQueueSessionRefusesTheTopicDomainsMethods(Jms jms) throws Exception {
        QueueConnection c = (QueueConnection) jms.closeLater(jms.factory().createConnection());
        QueueSession s = c.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
        Topic t = jms.topic(jms.session(), "not-here");
        assertThrows(IllegalStateException.class, () -> s.createTopic("t"));
        assertThrows(IllegalStateException.class, s::createTemporaryTopic);
        assertThrows(IllegalStateException.class, () -> s.createDurableSubscriber(t, "d"));
        assertThrows(IllegalStateException.class, () -> s.createDurableConsumer(t, "d"));
        assertThrows(IllegalStateException.class, () -> s.createSharedConsumer(t, "d"));
        assertThrows(IllegalStateException.class, () -> s.createSharedDurableConsumer(t, "d"));
        assertThrows(IllegalStateException.class, () -> s.unsubscribe("d"));
        assertNotNull(s.createQueue(jms.name("fine")));
    }

    @ProviderTest
    void aTopicSessionRefusesTheQueueDomainsMethods(Jms jms) throws Exception {
        TopicConnection c = (TopicConnection) jms.closeLater(jms.factory().createConnection());
        TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = jms.queue(jms.session(), "not-here");
        assertThrows(IllegalStateException.class, () -> s.createQueue("q"));
        assertThrows(IllegalStateException.class, s::createTemporaryQueue);
        assertThrows(IllegalStateException.class, () -> s.createBrowser(q));
        assertThrows(IllegalStateException.class, () -> s.createBrowser(q, "a = 1"));
        assertNotNull(s.createTopic(jms.name("fine")));
    }

    @ProviderTest
    void aDurableSubscriberClosedAfterACommitCanBeUnsubscribedAtOnce(Jms jms) throws Exception {
        Connection c = jms.closeLater(jms.factory().createConnection());
        c.setClientID(jms.name("cid"));
        c.start();
        Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
        Topic t = jms.topic(tx, "unsub-tx");
        TopicSubscriber subscriber = tx.createDurableSubscriber(t, "sub");
        send(tx, t, "m");
        tx.commit();
        assertEquals("m", text(subscriber.receive(Jms.RECEIVE_MS)));
        tx.commit();
        subscriber.close();
        tx.unsubscribe("sub");
    }
}
