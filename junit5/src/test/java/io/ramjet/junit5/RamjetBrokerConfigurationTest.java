package io.ramjet.junit5;

import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A broker that creates nothing on first use: only the destinations the extension names exist. */
class RamjetBrokerConfigurationTest {

    @RegisterExtension
    static RamjetBroker broker = RamjetBroker.create()
            .configure(c -> c.withAutoCreateDestinations(false))
            .withQueues("orders")
            .withTopics("news");

    @Test
    void aQueueNamedByTheExtensionExists() throws JMSException {
        broker.send("orders", "one");

        Message received = broker.receive("orders", Duration.ofSeconds(5));

        assertEquals("one", received.getBody(String.class));
    }

    @Test
    void aTopicNamedByTheExtensionExists() {
        try (JMSContext context = broker.connectionFactory().createContext()) {
            context.createProducer().send(context.createTopic("news"), "headline");
        }
    }

    @Test
    void aQueueNotNamedDoesNotExist() {
        assertThrows(JMSRuntimeException.class, () -> broker.send("unknown", "lost"));
    }
}
