package io.ramjet.reliability;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import java.io.PrintStream;

/**
 * A producer in a JVM of its own, for a test that kills it while its send is unanswered (so that
 * nobody resends it): sends one PERSISTENT message with the test id {@code ID} to {@code QUEUE},
 * printing {@code sending} before the send and {@code sent} once it returned.
 * Arguments: {@code URL QUEUE ID}.
 */
public final class OneSendChild {

    private OneSendChild() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        RamjetConnectionFactory factory = new RamjetConnectionFactory(args[0]);
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue(args[1]));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            out.println("sending");
            out.flush();
            producer.send(Jms.message(session, args[2]));
            out.println("sent");
            out.flush();
        }
    }
}
