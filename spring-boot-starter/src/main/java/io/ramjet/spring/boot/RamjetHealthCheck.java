package io.ramjet.spring.boot;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import org.springframework.jms.connection.SingleConnectionFactory;

/**
 * A round trip to a broker: a fresh connection (not the shared one, whose health says nothing
 * after it was opened) creates and deletes a temporary queue. The Actuator indicators of Boot 3
 * and Boot 4 differ only in their types; both call this.
 */
final class RamjetHealthCheck {

    private final ConnectionFactory factory;

    RamjetHealthCheck(ConnectionFactory configured) {
        this.factory = configured instanceof SingleConnectionFactory shared && shared.getTargetConnectionFactory() != null
                ? shared.getTargetConnectionFactory() : configured;
    }

    /** Returns the provider's version; throws when no broker answers. */
    String check() throws JMSException {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            TemporaryQueue probe = session.createTemporaryQueue();
            probe.delete();
            return connection.getMetaData().getProviderVersion();
        }
    }
}
