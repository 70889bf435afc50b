package io.ramjet.tck;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.ConnectionFactory;

/** Ramjet's embedded NameServer and Broker in this JVM (temporary data directory, real sockets). */
final class RamjetProvider implements ProviderUnderTest {

    private EmbeddedBroker broker;
    private RamjetConnectionFactory factory;

    @Override
    public String name() {
        return "Ramjet";
    }

    @Override
    public void start() {
        broker = EmbeddedBroker.start();
        factory = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress());
    }

    @Override
    public ConnectionFactory connectionFactory() {
        return factory;
    }

    @Override
    public void close() {
        broker.close();
    }
}
