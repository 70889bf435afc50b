package io.ramjet.ra.it.app;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

/**
 * What the beans do with a message they take: send its text on to another queue through the
 * pooled connection factory, in the caller's transaction, marked with the delivery count it
 * arrived with.
 */
final class Forwarding {

    private Forwarding() {
    }

    static void forward(ConnectionFactory factory, String queue, Message received) {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession();
            TextMessage copy = session.createTextMessage(((TextMessage) received).getText());
            copy.setIntProperty("arrivedWithDeliveryCount", received.getIntProperty("JMSXDeliveryCount"));
            session.createProducer(session.createQueue(queue)).send(copy);
        } catch (JMSException e) {
            throw new IllegalStateException("forwarding to " + queue + " failed", e);
        }
    }
}
