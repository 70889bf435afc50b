package io.ramjet.server.broker.ha;

import io.ramjet.controller.ClusterSecret;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A starting broker in controller mode gives up on controllers that never answer after {@code controllerRegisterPatienceMs}. */
class ControllerRegisterPatienceTest {

    @TempDir
    Path dir;

    @Test
    void aBrokerWhoseControllersNeverAnswerGivesUpAfterItsPatience() throws Exception {
        int silent;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            silent = closed.getLocalPort();
        }
        BrokerConfigBuilder builder = BrokerConfig.builder(dir).port(0).nameServers(List.of()).brokerName("g1")
                .brokerId(1).controllerAddresses("n0=127.0.0.1:" + silent).controllerHeartbeat(Duration.ofMillis(100))
                .controllerTimeout(Duration.ofMillis(300)).controllerRegisterPatience(Duration.ofMillis(500))
                .clusterSecret(ClusterSecret.of("the patience test's cluster secret"));
        ControlledBroker broker = new ControlledBroker(builder.build());
        long began = System.nanoTime();
        try {
            assertThrows(IllegalStateException.class, broker::start);
        } finally {
            broker.close();
        }
        long tookMillis = Duration.ofNanos(System.nanoTime() - began).toMillis();
        assertTrue(tookMillis < 15_000, "gave up after " + tookMillis + " ms, not the default 30 s");
    }
}
