package io.ramjet.provider.jms;

import io.ramjet.provider.client.FailoverRamjetClient;
import io.ramjet.provider.client.InMemoryBrokerClient;

/** Connection factories whose connections talk to an in-memory broker, under the real failover policy. */
final class InMemoryFactories {

    private InMemoryFactories() {
    }

    /** @param options URL options, "" or starting with '?' */
    static RamjetConnectionFactory factory(InMemoryBrokerClient.Broker broker, String options) {
        RamjetConnectionFactory factory = new RamjetConnectionFactory("ramjet://" + InMemoryBrokerClient.ADDRESS
                + options);
        factory.setClientFactory(info -> new FailoverRamjetClient(broker.client(info), info));
        return factory;
    }

    static RamjetXAConnectionFactory xaFactory(InMemoryBrokerClient.Broker broker) {
        RamjetXAConnectionFactory factory = new RamjetXAConnectionFactory("ramjet://" + InMemoryBrokerClient.ADDRESS);
        factory.setClientFactory(info -> new FailoverRamjetClient(broker.client(info), info));
        return factory;
    }
}
