package io.ramjet.provider.jms;

import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** One embedded broker per test class, and helpers to connect to it. */
abstract class BrokerTestSupport {

    static final long TIMEOUT = 5_000;
    static final long SHORT = 300;

    static EmbeddedBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    static RamjetConnectionFactory factory() {
        return new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress());
    }

    static Connection connect() throws JMSException {
        Connection connection = factory().createConnection();
        connection.start();
        return connection;
    }

    static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
