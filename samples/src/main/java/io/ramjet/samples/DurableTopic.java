package io.ramjet.samples;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A durable topic subscription: a subscriber identified by client id and subscription name
 * receives, goes away, and on reconnecting gets everything published meanwhile. Finally it
 * unsubscribes, which deletes the subscription and what it still held.
 * <pre>
 * mvn -q -pl samples exec:java -Dexec.mainClass=io.ramjet.samples.DurableTopic [-Dexec.args=ramjet://host:9876]
 * </pre>
 */
public final class DurableTopic {

    private static final Logger LOG = LoggerFactory.getLogger(DurableTopic.class);

    public static final String DEFAULT_URL = "ramjet://127.0.0.1:9876";
    public static final String TOPIC = "samples.prices";
    public static final String CLIENT_ID = "samples-durable-client";
    public static final String SUBSCRIPTION = "prices-subscription";

    /** What the subscriber received while first connected, and after it reconnected. */
    public record Received(List<String> beforeDisconnect, List<String> afterReconnect) {
    }

    private DurableTopic() {
    }

    public static void main(String[] args) throws JMSException {
        String url = args.length > 0 ? args[0] : DEFAULT_URL;
        Received received = run(new RamjetConnectionFactory(url), TOPIC, CLIENT_ID, SUBSCRIPTION);
        System.out.println("received while connected: " + received.beforeDisconnect());
        System.out.println("received after reconnecting: " + received.afterReconnect());
    }

    /**
     * Subscribes durably, receives one message, disconnects, lets two messages be published while
     * away, reconnects and receives them, then unsubscribes.
     */
    public static Received run(ConnectionFactory factory, String topicName, String clientId, String subscription)
            throws JMSException {
        List<String> before;
        try (Connection subscriber = factory.createConnection()) {
            subscriber.setClientID(clientId);
            Session session = subscriber.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic(topicName);
            MessageConsumer consumer = session.createDurableConsumer(topic, subscription);
            subscriber.start();
            LOG.info("subscribed durably to {} as {}/{}", topicName, clientId, subscription);
            publish(factory, topicName, "price 1");
            before = receive(consumer, 1);
        }
        LOG.info("subscriber disconnected; publishing while it is away");
        publish(factory, topicName, "price 2", "price 3");

        try (Connection subscriber = factory.createConnection()) {
            subscriber.setClientID(clientId);
            Session session = subscriber.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createDurableConsumer(session.createTopic(topicName), subscription);
            subscriber.start();
            LOG.info("reconnected as {}/{}", clientId, subscription);
            List<String> after = receive(consumer, 2);
            consumer.close();
            session.unsubscribe(subscription);
            LOG.info("unsubscribed {}/{}", clientId, subscription);
            return new Received(before, after);
        }
    }

    private static void publish(ConnectionFactory factory, String topicName, String... texts) throws JMSException {
        try (Connection publisher = factory.createConnection()) {
            Session session = publisher.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createTopic(topicName));
            for (String text : texts) {
                producer.send(session.createTextMessage(text));
                LOG.info("published '{}' to {}", text, topicName);
            }
        }
    }

    /** Receives up to {@code count} texts, giving up after five seconds without a message. */
    private static List<String> receive(MessageConsumer consumer, int count) throws JMSException {
        List<String> texts = new ArrayList<>();
        while (texts.size() < count) {
            TextMessage message = (TextMessage) consumer.receive(5_000);
            if (message == null) {
                break;
            }
            texts.add(message.getText());
        }
        return texts;
    }
}
