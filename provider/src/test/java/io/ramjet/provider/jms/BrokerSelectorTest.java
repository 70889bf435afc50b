package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Selectors end to end, where the broker's part shows: it tags messages itself, filters by
 * mask, and evaluates selectors that have none, so competing queue consumers each get exactly
 * their own without messages bouncing between them.
 */
class BrokerSelectorTest extends BrokerTestSupport {

    @Test
    void queueConsumersWithRangeSelectorsEachGetExactlyTheirOwnWithoutRedelivery() throws Exception {
        CountingBrokerClient counting = new CountingBrokerClient();
        try (Connection connection = counting.factory(broker.nameServerAddress(), "").createConnection()) {
            connection.start();
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("ranges"));
            MessageConsumer low = session.createConsumer(queue, "n < 50");
            MessageConsumer high = session.createConsumer(queue, "n BETWEEN 50 AND 99");
            MessageProducer producer = session.createProducer(queue);
            long before = broker.broker().recordsReadForDelivery();
            for (int n = 0; n < 100; n++) {
                Message m = session.createMessage();
                m.setIntProperty("n", n);
                producer.send(m);
            }
            assertEquals(range(0, 50), receiveAll(low));
            assertEquals(range(50, 100), receiveAll(high));
            long read = broker.broker().recordsReadForDelivery() - before;
            // a consumer not receiving meanwhile (high, while low receives) gives back uncounted what
            // it prefetched, read again when it receives: those reads are the releases'
            int givenBack = counting.releases.stream().mapToInt(Integer::intValue).sum();
            assertTrue(read >= 100 && read <= 200 + givenBack, read + " records read, " + givenBack
                    + " given back: each at most once per consumer and release");
        }
    }

    @Test
    void aDurableSubscriptionKeepsItsSelectorWhileItsConsumerIsAway() throws Exception {
        String name = unique("sub");
        String clientId = unique("client");
        Topic topic;
        try (Connection connection = factory().createConnection()) {
            connection.setClientID(clientId);
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            topic = session.createTopic(unique("durable-selector"));
            session.createDurableConsumer(topic, name, "n > 2", false).close();
            MessageProducer producer = session.createProducer(topic);
            for (int n = 0; n < 6; n++) {
                Message m = session.createMessage();
                m.setIntProperty("n", n);
                producer.send(m);
            }
        }
        try (Connection connection = factory().createConnection()) {
            connection.setClientID(clientId);
            connection.start();
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createDurableConsumer(topic, name, "n > 2", false);
            assertEquals(List.of(3, 4, 5), receiveAll(consumer));
            consumer.close();
            session.unsubscribe(name);
        }
    }

    /** Receives until nothing more comes; the n property of each, and none redelivered. */
    private static List<Integer> receiveAll(MessageConsumer consumer) throws Exception {
        List<Integer> got = new ArrayList<>();
        for (Message m = consumer.receive(TIMEOUT); m != null; m = consumer.receive(SHORT)) {
            assertFalse(m.getJMSRedelivered(), "message " + m.getIntProperty("n") + " came back");
            got.add(m.getIntProperty("n"));
        }
        assertNull(consumer.receiveNoWait());
        return got;
    }

    private static List<Integer> range(int from, int to) {
        List<Integer> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(i);
        }
        return out;
    }
}
