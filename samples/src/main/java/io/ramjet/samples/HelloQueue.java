package io.ramjet.samples;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The smallest Ramjet program: send one {@link TextMessage} to a queue and receive it back,
 * with the classic {@code Connection} / {@code Session} API.
 * <pre>
 * mvn -q -pl samples exec:java -Dexec.mainClass=io.ramjet.samples.HelloQueue [-Dexec.args=ramjet://host:9876]
 * </pre>
 */
public final class HelloQueue {

    private static final Logger LOG = LoggerFactory.getLogger(HelloQueue.class);

    /** The standalone server of the README's quick start. */
    public static final String DEFAULT_URL = "ramjet://127.0.0.1:9876";
    public static final String QUEUE = "samples.hello";

    private HelloQueue() {
    }

    public static void main(String[] args) throws JMSException {
        String url = args.length > 0 ? args[0] : DEFAULT_URL;
        String received = sendAndReceive(new RamjetConnectionFactory(url), QUEUE, "Hello, Ramjet!");
        System.out.println("received: " + received);
    }

    /**
     * Sends {@code text} to the queue, then receives one message from it.
     *
     * @return the text received, or {@code null} if nothing arrived within five seconds
     */
    public static String sendAndReceive(ConnectionFactory factory, String queueName, String text) throws JMSException {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(queueName);

            MessageProducer producer = session.createProducer(queue);
            TextMessage message = session.createTextMessage(text);
            producer.send(message);
            LOG.info("sent {} to {}", message.getJMSMessageID(), queueName);

            MessageConsumer consumer = session.createConsumer(queue);
            connection.start();
            TextMessage reply = (TextMessage) consumer.receive(5_000);
            if (reply == null) {
                LOG.warn("nothing arrived on {}", queueName);
                return null;
            }
            LOG.info("received {} from {}", reply.getJMSMessageID(), queueName);
            return reply.getText();
        }
    }
}
