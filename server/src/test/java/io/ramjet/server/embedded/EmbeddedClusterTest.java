package io.ramjet.server.embedded;

import io.ramjet.protocol.command.BrokerList;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.server.broker.Broker;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

class EmbeddedClusterTest {

    @Test
    void brokersRegisterAndABrokerRestartsOnItsPort() throws Exception {
        Path root;
        try (EmbeddedCluster cluster = EmbeddedCluster.start(2);
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            assertEquals(Set.of("broker-0", "broker-1"), brokerNames(client, cluster));
            Broker first = cluster.broker(1);
            int port = first.port();
            root = first.config().dataDir().getParent();
            cluster.stopBroker(1);
            assertNull(cluster.broker(1));
            assertEquals(Set.of("broker-0"), brokerNames(client, cluster));
            assertEquals(port, cluster.restartBroker(1, port).port());
            assertEquals(Set.of("broker-0", "broker-1"), brokerNames(client, cluster));
        }
        assertFalse(Files.exists(root));
    }

    private static Set<String> brokerNames(RemotingClient client, EmbeddedCluster cluster) throws Exception {
        Frame response = client.invokeSync(cluster.nameServerAddress(), Frame.request(CommandCode.LIST_BROKERS, null),
                Duration.ofSeconds(3));
        return response.header(BrokerList.class).brokers().stream().map(b -> b.brokerName())
                .collect(Collectors.toSet());
    }
}
