package io.ramjet.samples;

import static org.junit.jupiter.api.Assertions.assertNull;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Base of the sample tests: one embedded broker per test class, and checks on what a queue holds. */
abstract class EmbeddedBrokerTest {

    static EmbeddedBroker broker;
    static RamjetConnectionFactory factory;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedBroker.start();
        factory = new RamjetConnectionFactory(url());
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    /** The {@code ramjet://} URL of the embedded broker, what a sample's main takes. */
    static String url() {
        return "ramjet://" + broker.nameServerAddress();
    }

    static void assertQueueEmpty(String queueName) {
        try (JMSContext context = factory.createContext()) {
            assertNull(context.createConsumer(context.createQueue(queueName)).receive(200), queueName + " is not empty");
        }
    }

    /** Receives the texts of the queue until it has been quiet for a short while. */
    static List<String> drainTexts(String queueName) throws Exception {
        List<String> texts = new ArrayList<>();
        try (JMSContext context = factory.createContext()) {
            JMSConsumer consumer = context.createConsumer(context.createQueue(queueName));
            for (TextMessage m = (TextMessage) consumer.receive(1_000); m != null; m = (TextMessage) consumer.receive(200)) {
                texts.add(m.getText());
            }
        }
        return texts;
    }
}
