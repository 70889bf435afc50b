package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.util.List;

/**
 * Two consumers of one queue or one shared subscription, used from one thread as an application
 * uses them: each message goes to one of them (point-to-point for a queue; for a shared
 * subscription the javadoc of {@code createSharedConsumer} and {@code createSharedDurableConsumer}:
 * "each message from the subscription will be delivered to only one of the consumers"), and the one that calls
 * {@code receive} gets a message sent while the other is not receiving, whichever of the two took
 * the message before. A message no application saw was never delivered: it comes with
 * JMSRedelivered false and JMSXDeliveryCount 1 (sections 3.4.7 and 3.5.11).
 *
 * <p>The consumers take turns, as in the shared-consumer tests of the Jakarta Messaging TCK
 * ({@code createSharedConsumerTest1}): the first receives a message while the second does not,
 * then the second receives the next while the first does not, and so on.
 */
class CompetingConsumersTest {

    private static final int ROUNDS = 6;

    /** How the two consumers are made, and what is undone after. */
    enum Kind { QUEUE, SHARED, SHARED_DURABLE, CONTEXT_SHARED, CONTEXT_SHARED_DURABLE }

    static List<Kind> kinds() {
        return List.of(Kind.values());
    }

    /** One consumer's receive, whichever API it comes from. */
    private interface Receiver {
        Message receive(long timeoutMillis) throws JMSException;
    }

    /** One message sent to the shared destination. */
    private interface Sender {
        void send(String text) throws JMSException;
    }

    @ProviderRows("kinds")
    void theConsumerThatReceivesGetsTheMessageSentWhileTheOtherDoesNot(Jms jms, Kind kind) throws Exception {
        String subscription = jms.name("sub");
        if (kind == Kind.CONTEXT_SHARED || kind == Kind.CONTEXT_SHARED_DURABLE) {
            JMSContext context = jms.context();
            Topic topic = context.createTopic(jms.name("topic"));
            boolean durable = kind == Kind.CONTEXT_SHARED_DURABLE;
            var first = durable ? context.createSharedDurableConsumer(topic, subscription)
                    : context.createSharedConsumer(topic, subscription);
            var second = durable ? context.createSharedDurableConsumer(topic, subscription)
                    : context.createSharedConsumer(topic, subscription);
            JMSProducer producer = context.createProducer();
            takeTurns(text -> producer.send(topic, text), first::receive, second::receive);
            first.close();
            second.close();
            if (durable) {
                context.unsubscribe(subscription);
            }
            return;
        }
        Session session = jms.session();
        MessageConsumer first;
        MessageConsumer second;
        MessageProducer producer;
        if (kind == Kind.QUEUE) {
            Queue queue = jms.queue(session, "queue");
            first = session.createConsumer(queue);
            second = session.createConsumer(queue);
            producer = session.createProducer(queue);
        } else {
            Topic topic = jms.topic(session, "topic");
            boolean durable = kind == Kind.SHARED_DURABLE;
            first = durable ? session.createSharedDurableConsumer(topic, subscription)
                    : session.createSharedConsumer(topic, subscription);
            second = durable ? session.createSharedDurableConsumer(topic, subscription)
                    : session.createSharedConsumer(topic, subscription);
            producer = session.createProducer(topic);
        }
        takeTurns(text -> producer.send(session.createTextMessage(text)), first::receive, second::receive);
        first.close();
        second.close();
        if (kind == Kind.SHARED_DURABLE) {
            session.unsubscribe(subscription);
        }
    }

    /**
     * Round k: sends message k; the consumer whose turn it is receives it, as a first delivery;
     * the other then finds nothing.
     */
    private static void takeTurns(Sender sender, Receiver first, Receiver second) throws JMSException {
        for (int round = 0; round < ROUNDS; round++) {
            Receiver receiving = round % 2 == 0 ? first : second;
            Receiver other = round % 2 == 0 ? second : first;
            String name = round % 2 == 0 ? "the first consumer" : "the second consumer";
            sender.send("m" + round);
            Message m = receiving.receive(Jms.RECEIVE_MS);
            assertNotNull(m, "round " + round + ": " + name + " received nothing");
            assertEquals("m" + round, ((TextMessage) m).getText(), "round " + round);
            assertFalse(m.getJMSRedelivered(), "round " + round + ": no application saw it before");
            assertEquals(1, m.getIntProperty("JMSXDeliveryCount"), "round " + round);
            assertNull(other.receive(Jms.ABSENT_MS), "round " + round + ": the message went to one consumer only");
        }
    }
}
