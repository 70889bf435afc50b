package io.ramjet.tck;

import jakarta.jms.ConnectionFactory;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.junit.EmbeddedActiveMQExtension;

/** ActiveMQ Artemis embedded in this JVM (in-VM acceptor, no persistence): the reference. */
final class ArtemisProvider implements ProviderUnderTest {

    private final EmbeddedActiveMQExtension server = new EmbeddedActiveMQExtension();
    private ActiveMQConnectionFactory factory;

    @Override
    public String name() {
        return "Artemis";
    }

    @Override
    public void start() {
        server.start();
        factory = new ActiveMQConnectionFactory(server.getVmURL());
    }

    @Override
    public ConnectionFactory connectionFactory() {
        return factory;
    }

    @Override
    public void close() {
        factory.close();
        server.stop();
    }
}
