package io.ramjet.samples;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Request/reply over a queue: the requester sends each request with a temporary queue as
 * {@code JMSReplyTo} and a fresh {@code JMSCorrelationID}; a responder, a
 * {@link jakarta.jms.MessageListener} on its own connection, answers to that queue with the same
 * correlation id. The temporary queue dies with the requester's connection.
 * <pre>
 * mvn -q -pl samples exec:java -Dexec.mainClass=io.ramjet.samples.RequestReply [-Dexec.args=ramjet://host:9876]
 * </pre>
 */
public final class RequestReply {

    private static final Logger LOG = LoggerFactory.getLogger(RequestReply.class);

    public static final String DEFAULT_URL = "ramjet://127.0.0.1:9876";
    public static final String REQUEST_QUEUE = "samples.requests";

    /** One request and the reply it got; {@code reply} is {@code null} when none came in time. */
    public record Exchange(String request, String correlationId, String reply, String replyCorrelationId) {
    }

    private RequestReply() {
    }

    public static void main(String[] args) throws JMSException {
        String url = args.length > 0 ? args[0] : DEFAULT_URL;
        ConnectionFactory factory = new RamjetConnectionFactory(url);
        try (Connection responder = startResponder(factory, REQUEST_QUEUE)) {
            for (Exchange exchange : request(factory, REQUEST_QUEUE, List.of("ping", "hello", "bye"))) {
                System.out.println(exchange.request() + " -> " + exchange.reply()
                        + " (correlation id " + exchange.replyCorrelationId() + ")");
            }
        }
    }

    /**
     * Starts a responder that answers every text request on the queue with the text in upper
     * case. Closing the returned connection stops it.
     */
    public static Connection startResponder(ConnectionFactory factory, String requestQueue) throws JMSException {
        Connection connection = factory.createConnection();
        try {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer replies = session.createProducer(null);
            MessageConsumer requests = session.createConsumer(session.createQueue(requestQueue));
            requests.setMessageListener(request -> answer(session, replies, request));
            connection.start();
            LOG.info("responder listening on {}", requestQueue);
            return connection;
        } catch (JMSException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    private static void answer(Session session, MessageProducer replies, Message request) {
        try {
            String text = ((TextMessage) request).getText();
            TextMessage reply = session.createTextMessage(text.toUpperCase());
            reply.setJMSCorrelationID(request.getJMSCorrelationID());
            replies.send(request.getJMSReplyTo(), reply);
            LOG.info("answered '{}' (correlation id {})", text, request.getJMSCorrelationID());
        } catch (JMSException | RuntimeException e) {
            LOG.error("could not answer request {}", request, e);
        }
    }

    /** Sends each request in turn and waits (five seconds at most) for its reply. */
    public static List<Exchange> request(ConnectionFactory factory, String requestQueue, List<String> requests)
            throws JMSException {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue(requestQueue));
            TemporaryQueue replyQueue = session.createTemporaryQueue();
            MessageConsumer replies = session.createConsumer(replyQueue);
            connection.start();

            List<Exchange> exchanges = new ArrayList<>();
            for (String text : requests) {
                TextMessage request = session.createTextMessage(text);
                String correlationId = UUID.randomUUID().toString();
                request.setJMSCorrelationID(correlationId);
                request.setJMSReplyTo(replyQueue);
                producer.send(request);
                LOG.info("sent '{}' (correlation id {}), replies to {}", text, correlationId, replyQueue);

                TextMessage reply = (TextMessage) replies.receive(5_000);
                exchanges.add(reply == null
                        ? new Exchange(text, correlationId, null, null)
                        : new Exchange(text, correlationId, reply.getText(), reply.getJMSCorrelationID()));
            }
            return exchanges;
        }
    }
}
