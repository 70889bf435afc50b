package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.ramjet.provider.client.InMemoryBrokerClient;
import io.ramjet.provider.client.OutgoingMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each MessageProducer, and the producer under a JMSContext's JMSProducers, is an idempotent
 * producer: one random nonzero id, and a sequence 1, 2, ... on the messages it hands
 * to the client layer.
 */
class IdempotentProducerIdsTest {

    private final InMemoryBrokerClient.Broker broker = new InMemoryBrokerClient.Broker();
    private final RamjetConnectionFactory factory = InMemoryFactories.factory(broker, "");

    @Test
    void aProducerNumbersItsSendsUnderOneIdAndAnotherProducerHasAnotherId() throws Exception {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue("q");
            MessageProducer first = session.createProducer(queue);
            MessageProducer second = session.createProducer(null);
            first.send(session.createTextMessage("1"));
            second.send(queue, session.createTextMessage("a"));
            first.send(session.createTextMessage("2"));
            first.send(session.createTextMessage("3"));
        }
        List<OutgoingMessage> seen = broker.sendsSeen();
        long a = seen.get(0).producerId();
        long b = seen.get(1).producerId();
        assertNotEquals(0, a);
        assertNotEquals(0, b);
        assertNotEquals(a, b);
        assertEquals(List.of(a, b, a, a), seen.stream().map(OutgoingMessage::producerId).toList());
        assertEquals(List.of(1L, 1L, 2L, 3L), seen.stream().map(OutgoingMessage::sequence).toList());
    }

    @Test
    void aContextsProducersShareOneIdempotentProducer() {
        try (JMSContext context = factory.createContext()) {
            Queue queue = context.createQueue("q");
            context.createProducer().send(queue, "1");
            context.createProducer().send(queue, "2");
        }
        List<OutgoingMessage> seen = broker.sendsSeen();
        assertNotEquals(0, seen.get(0).producerId());
        assertEquals(seen.get(0).producerId(), seen.get(1).producerId());
        assertEquals(List.of(1L, 2L), seen.stream().map(OutgoingMessage::sequence).toList());
    }
}
