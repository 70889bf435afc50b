package io.ramjet.samples;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An exactly-once move between two queues: one transacted session consumes from the source and
 * produces to the target, and each {@code commit()} makes the send visible and the receive
 * acknowledged together. Had the program died before a commit, the message would still be on
 * the source and nothing on the target; a failure rolls both back.
 * <pre>
 * mvn -q -pl samples exec:java -Dexec.mainClass=io.ramjet.samples.TransactedMove [-Dexec.args=ramjet://host:9876]
 * </pre>
 */
public final class TransactedMove {

    private static final Logger LOG = LoggerFactory.getLogger(TransactedMove.class);

    public static final String DEFAULT_URL = "ramjet://127.0.0.1:9876";
    public static final String SOURCE = "samples.incoming";
    public static final String TARGET = "samples.outgoing";

    private TransactedMove() {
    }

    public static void main(String[] args) throws JMSException {
        String url = args.length > 0 ? args[0] : DEFAULT_URL;
        ConnectionFactory factory = new RamjetConnectionFactory(url);
        fill(factory, SOURCE, List.of("order 1", "order 2", "order 3"));
        System.out.println("rolled back the move of '" + moveOneAndRollBack(factory, SOURCE, TARGET)
                + "': it stays on " + SOURCE + ", nothing reached " + TARGET);
        System.out.println("moved from " + SOURCE + " to " + TARGET + ": " + moveAll(factory, SOURCE, TARGET));
    }

    /** Sends the texts to the queue, outside any transaction. */
    public static void fill(ConnectionFactory factory, String queueName, List<String> texts) throws JMSException {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue(queueName));
            for (String text : texts) {
                producer.send(session.createTextMessage(text));
            }
            LOG.info("sent {} messages to {}", texts.size(), queueName);
        }
    }

    /**
     * What a failure in the middle of a move does: receives one message and sends its copy in a
     * transaction, then rolls back instead of committing. The message goes back to the source
     * (redelivered, {@code JMSRedelivered=true}) and the copy is never seen on the target.
     *
     * @return the text whose move was rolled back, or {@code null} if the source stayed empty for five seconds
     */
    public static String moveOneAndRollBack(ConnectionFactory factory, String source, String target)
            throws JMSException {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = session.createConsumer(session.createQueue(source));
            MessageProducer producer = session.createProducer(session.createQueue(target));
            connection.start();
            TextMessage in = (TextMessage) consumer.receive(5_000);
            if (in == null) {
                return null;
            }
            producer.send(session.createTextMessage(in.getText()));
            session.rollback();
            LOG.info("rolled back the move of '{}' from {} to {}", in.getText(), source, target);
            return in.getText();
        }
    }

    /**
     * Moves messages from {@code source} to {@code target}, one transaction per message, until
     * the source has been empty for a second.
     *
     * @return the texts moved, in order
     */
    public static List<String> moveAll(ConnectionFactory factory, String source, String target) throws JMSException {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = session.createConsumer(session.createQueue(source));
            MessageProducer producer = session.createProducer(session.createQueue(target));
            connection.start();

            List<String> moved = new ArrayList<>();
            for (TextMessage in = (TextMessage) consumer.receive(5_000); in != null;
                    in = (TextMessage) consumer.receive(1_000)) {
                try {
                    TextMessage out = session.createTextMessage(in.getText());
                    out.setJMSCorrelationID(in.getJMSMessageID());
                    producer.send(out);
                    session.commit();
                } catch (JMSException | RuntimeException e) {
                    session.rollback();
                    throw e;
                }
                moved.add(in.getText());
                LOG.info("moved '{}' from {} to {} and committed{}", in.getText(), source, target,
                        in.getJMSRedelivered() ? " (it had been delivered before)" : "");
            }
            return moved;
        }
    }
}
