package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Queues, topics, browsers and temporary destinations (sections 4, 6.2.9, 6.11). */
class DestinationTest {

    private static void sendTexts(Session s, jakarta.jms.Destination d, int n) throws JMSException {
        MessageProducer p = s.createProducer(d);
        for (int i = 0; i < n; i++) {
            p.send(s.createTextMessage("m" + i));
        }
    }

    private static String text(Message m) throws JMSException {
        return ((TextMessage) m).getText();
    }

    @ProviderTest
    void messagesOfOneSessionArriveInOrder(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "order");
        sendTexts(s, q, 200);
        MessageConsumer c = s.createConsumer(q);
        for (int i = 0; i < 200; i++) {
            assertEquals("m" + i, text(c.receive(Jms.RECEIVE_MS)));
        }
        assertNull(c.receive(Jms.ABSENT_MS));
    }

    @ProviderTest
    void competingConsumersShareAQueueWithoutDuplicates(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "compete");
        Session s1 = jms.session();
        Session s2 = jms.session();
        MessageConsumer c1 = s1.createConsumer(q);
        MessageConsumer c2 = s2.createConsumer(q);
        sendTexts(s, q, 100);
        Set<String> got = new HashSet<>();
        int received = 0;
        for (MessageConsumer c : new MessageConsumer[] {c1, c2}) {
            Message m;
            while ((m = c.receive(Jms.ABSENT_MS)) != null) {
                got.add(text(m));
                received++;
            }
        }
        assertEquals(100, received, "no duplicates");
        assertEquals(100, got.size(), "everything sent");
    }

    @ProviderTest
    void aQueueKeepsMessagesUntilAConsumerComes(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "keep");
        sendTexts(s, q, 3);
        MessageConsumer c = jms.session().createConsumer(q);
        assertEquals("m0", text(c.receive(Jms.RECEIVE_MS)));
    }

    @ProviderTest
    void receiveNoWaitReturnsNullOnAnEmptyQueue(Jms jms) throws Exception {
        Session s = jms.session();
        assertNull(s.createConsumer(jms.queue(s, "empty")).receiveNoWait());
    }

    @ProviderTest
    void browserSeesWithoutConsuming(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "browse");
        sendTexts(s, q, 5);
        QueueBrowser b = s.createBrowser(q);
        List<String> seen = new ArrayList<>();
        for (Object m : Collections.list(b.getEnumeration())) {
            seen.add(text((Message) m));
        }
        assertEquals(List.of("m0", "m1", "m2", "m3", "m4"), seen);
        MessageConsumer c = s.createConsumer(q);
        for (int i = 0; i < 5; i++) {
            assertNotNull(c.receive(Jms.RECEIVE_MS));
        }
    }

    @ProviderTest
    void browserHonoursItsSelector(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "browsesel");
        MessageProducer p = s.createProducer(q);
        for (int i = 0; i < 6; i++) {
            Message m = s.createTextMessage("m" + i);
            m.setIntProperty("n", i);
            p.send(m);
        }
        QueueBrowser b = s.createBrowser(q, "n >= 4");
        assertEquals("n >= 4", b.getMessageSelector());
        List<String> seen = new ArrayList<>();
        for (Object m : Collections.list(b.getEnumeration())) {
            seen.add(text((Message) m));
        }
        assertEquals(List.of("m4", "m5"), seen);
    }

    @ProviderTest
    void everyTopicSubscriberGetsEveryMessage(Jms jms) throws Exception {
        Session s = jms.session();
        Topic t = jms.topic(s, "fan");
        MessageConsumer a = jms.session().createConsumer(t);
        MessageConsumer b = jms.session().createConsumer(t);
        sendTexts(s, t, 10);
        for (MessageConsumer c : new MessageConsumer[] {a, b}) {
            for (int i = 0; i < 10; i++) {
                assertEquals("m" + i, text(c.receive(Jms.RECEIVE_MS)));
            }
        }
    }

    @ProviderTest
    void aNonDurableSubscriberMissesWhatWasSentBeforeIt(Jms jms) throws Exception {
        Session s = jms.session();
        Topic t = jms.topic(s, "late");
        sendTexts(s, t, 3);
        MessageConsumer c = s.createConsumer(t);
        s.createProducer(t).send(s.createTextMessage("after"));
        assertEquals("after", text(c.receive(Jms.RECEIVE_MS)));
    }

    @ProviderTest
    void noLocalSubscriberSkipsItsOwnConnectionsMessages(Jms jms) throws Exception {
        Connection own = jms.connection();
        Session s = own.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Topic t = jms.topic(s, "nolocal");
        MessageConsumer c = s.createConsumer(t, null, true);
        s.createProducer(t).send(s.createTextMessage("mine"));
        Session other = jms.session();
        other.createProducer(t).send(other.createTextMessage("theirs"));
        assertEquals("theirs", text(c.receive(Jms.RECEIVE_MS)));
        assertNull(c.receive(Jms.ABSENT_MS));
    }

    @ProviderTest
    void temporaryQueueCarriesARequestReply(Jms jms) throws Exception {
        Session client = jms.session();
        Session server = jms.session();
        Queue requests = jms.queue(client, "requests");
        TemporaryQueue replies = client.createTemporaryQueue();
        MessageConsumer replyConsumer = client.createConsumer(replies);
        Message request = client.createTextMessage("ping");
        request.setJMSReplyTo(replies);
        client.createProducer(requests).send(request);

        Message got = server.createConsumer(requests).receive(Jms.RECEIVE_MS);
        Message reply = server.createTextMessage("pong");
        reply.setJMSCorrelationID(got.getJMSMessageID());
        server.createProducer(got.getJMSReplyTo()).send(reply);

        Message answer = replyConsumer.receive(Jms.RECEIVE_MS);
        assertEquals("pong", text(answer));
        assertEquals(request.getJMSMessageID(), answer.getJMSCorrelationID());
    }

    @ProviderTest
    void onlyTheCreatingConnectionMayConsumeATemporaryQueue(Jms jms) throws Exception {
        TemporaryQueue tq = jms.session().createTemporaryQueue();
        Session other = jms.session();
        assertThrows(JMSException.class, () -> other.createConsumer(tq));
    }

    @ProviderTest
    void deletingATemporaryQueueInUseIsRefused(Jms jms) throws Exception {
        Session s = jms.session();
        TemporaryQueue tq = s.createTemporaryQueue();
        s.createConsumer(tq);
        assertThrows(JMSException.class, tq::delete);
    }

    @ProviderTest
    void temporaryTopicReachesItsSubscriber(Jms jms) throws Exception {
        Session s = jms.session();
        TemporaryTopic tt = s.createTemporaryTopic();
        MessageConsumer c = s.createConsumer(tt);
        s.createProducer(tt).send(s.createTextMessage("t"));
        assertEquals("t", text(c.receive(Jms.RECEIVE_MS)));
    }

    @ProviderTest
    void anonymousProducerNamesTheDestinationPerSend(Jms jms) throws Exception {
        Session s = jms.session();
        Queue a = jms.queue(s, "anonA");
        Queue b = jms.queue(s, "anonB");
        MessageProducer p = s.createProducer(null);
        assertNull(p.getDestination());
        p.send(a, s.createTextMessage("to a"));
        p.send(b, s.createTextMessage("to b"));
        assertEquals("to a", text(s.createConsumer(a).receive(Jms.RECEIVE_MS)));
        assertEquals("to b", text(s.createConsumer(b).receive(Jms.RECEIVE_MS)));
    }

    @ProviderTest
    void anonymousProducerRefusesSendWithoutDestination(Jms jms) throws Exception {
        Session s = jms.session();
        MessageProducer p = s.createProducer(null);
        assertThrows(UnsupportedOperationException.class, () -> p.send(s.createMessage()));
    }

    @ProviderTest
    void producerWithDestinationRefusesAnotherOne(Jms jms) throws Exception {
        Session s = jms.session();
        MessageProducer p = s.createProducer(jms.queue(s, "fixed"));
        assertThrows(UnsupportedOperationException.class, () -> p.send(jms.queue(s, "other"), s.createMessage()));
    }

    @ProviderTest
    void consumerOnNullDestinationIsRefused(Jms jms) throws Exception {
        Session s = jms.session();
        assertThrows(InvalidDestinationException.class, () -> s.createConsumer(null));
    }

    @ProviderTest
    void browserOnNullQueueIsRefused(Jms jms) throws Exception {
        Session s = jms.session();
        assertThrows(InvalidDestinationException.class, () -> s.createBrowser(null));
    }

    @ProviderTest
    void queueAndTopicNamesAreKept(Jms jms) throws Exception {
        Session s = jms.session();
        assertEquals(jms.name("n"), jms.queue(s, "n").getQueueName());
        assertEquals(jms.name("n"), jms.topic(s, "n").getTopicName());
    }

    @ProviderTest
    void receiveWithTimeoutReturnsNullWhenNothingArrives(Jms jms) throws Exception {
        Session s = jms.session();
        long start = System.nanoTime();
        assertNull(s.createConsumer(jms.queue(s, "quiet")).receive(Jms.ABSENT_MS));
        assertTrue(System.nanoTime() - start >= java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(Jms.ABSENT_MS - 20));
    }

    @ProviderTest
    void stoppedConnectionDeliversNothingUntilStarted(Jms jms) throws Exception {
        Connection c = jms.factory().createConnection();
        jms.closeLater(c);
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = jms.queue(s, "stopped");
        s.createProducer(q).send(s.createTextMessage("x"));
        MessageConsumer consumer = s.createConsumer(q);
        assertNull(consumer.receive(Jms.ABSENT_MS));
        c.start();
        assertEquals("x", text(consumer.receive(Jms.RECEIVE_MS)));
        c.stop();
        s.createProducer(q).send(s.createTextMessage("y"));
        assertNull(consumer.receive(Jms.ABSENT_MS));
    }
}
