package io.ramjet.cli;

import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.server.embedded.EmbeddedCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.time.Duration;

/**
 * A NameServer with two broker groups for each test, the CLI pointed at it, and a remoting client
 * for what a test checks or sets up beside the CLI.
 */
abstract class TwoBrokerClusterTestSupport {

    static final Duration REQUEST = Duration.ofSeconds(5);

    EmbeddedCluster cluster;
    RemotingClient remoting;
    Cli cli;

    @BeforeEach
    void startCluster() {
        cluster = EmbeddedCluster.start(2);
        remoting = new RemotingClient(RemotingClientConfig.defaults());
        cli = new Cli("ramjet://" + cluster.nameServerAddress());
    }

    @AfterEach
    void stopCluster() {
        remoting.close();
        cluster.close();
    }
}
