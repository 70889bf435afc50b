package io.ramjet.cli;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.embedded.EmbeddedBroker;

import java.util.function.UnaryOperator;

/** An embedded broker for one test, with a JMS connection factory and the CLI pointed at it. */
final class Deployment implements AutoCloseable {

    final EmbeddedBroker broker;
    final RamjetConnectionFactory factory;
    final Cli cli;

    private Deployment(EmbeddedBroker broker) {
        this.broker = broker;
        String url = "ramjet://" + broker.nameServerAddress();
        this.factory = new RamjetConnectionFactory(url);
        this.cli = new Cli(url);
    }

    /** A broker with one message queue per destination, so depths and orders are exact, tuned further by {@code tuning}. */
    static Deployment start(UnaryOperator<BrokerConfig> tuning) {
        return new Deployment(EmbeddedBroker.start(c -> tuning.apply(c.withQueuesPerDestination(1))));
    }

    @Override
    public void close() {
        broker.close();
    }
}
