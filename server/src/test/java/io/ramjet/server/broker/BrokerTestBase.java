package io.ramjet.server.broker;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** A broker on a temporary data directory and a client connected to it, fresh for each test. */
abstract class BrokerTestBase {

    @TempDir
    Path dataDir;

    Broker broker;
    BrokerTestClient client;

    @BeforeEach
    void start() throws Exception {
        broker = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        client = new BrokerTestClient(broker.address());
    }

    @AfterEach
    void stop() {
        client.close();
        broker.close();
    }
}
