package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.RouteData;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A broker killed with {@code kill -9} leaves the route at once: its NameServer connection closes
 * with the process, long before the (default, two-minute) heartbeat expiry could drop it.
 */
class KilledBrokerRouteTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    @TempDir
    Path dataDir;

    @Test
    void routeOfAKilledBrokerDisappears() throws Exception {
        NameServerConfig nsConfig = NameServerConfig.defaults().withPort(0);
        assertTrue(nsConfig.brokerExpiry().compareTo(Duration.ofSeconds(60)) > 0,
                "the expiry is far longer than the deadline below, so only the channel close can drop the broker");
        try (NameServer nameServer = new NameServer(nsConfig);
             RemotingClient remoting = new RemotingClient(RemotingClientConfig.defaults())) {
            nameServer.start();
            NameServerClient routes = new NameServerClient(remoting, List.of(nameServer.address()), TIMEOUT);
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), BrokerProcess.class.getName(), dataDir.toString(),
                    nameServer.address())
                    .redirectError(ProcessBuilder.Redirect.appendTo(Path.of("target", "broker-process.log").toFile()))
                    .start();
            try {
                String address = "127.0.0.1:" + readPort(child);
                try (BrokerTestClient client = new BrokerTestClient(address)) {
                    client.send("doomed", DestinationKind.QUEUE, 0, "x");
                }
                RouteData route = eventually(routes, r -> !r.isEmpty());
                assertEquals(1, route.brokers().size(), "the child broker's route appeared: " + route);
                assertEquals(address, route.brokers().get(0).broker().address());
                assertEquals(1, routes.listBrokers().join().size());

                child.destroyForcibly();
                assertTrue(child.waitFor(20, TimeUnit.SECONDS), "the child broker died");
                long killedAt = System.nanoTime();
                RouteData after = eventually(routes, RouteData::isEmpty);
                assertTrue(after.isEmpty(), "the killed broker's route is gone: " + after);
                assertTrue(System.nanoTime() - killedAt < TimeUnit.SECONDS.toNanos(15));
                assertTrue(routes.listBrokers().join().isEmpty(), "the broker list is empty too");
            } finally {
                child.destroyForcibly();
                child.waitFor(20, TimeUnit.SECONDS);
            }
        }
    }

    private static String readPort(Process child) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("PORT ")) {
            // skip log lines
        }
        assertTrue(line != null, "child broker printed its port");
        return line.substring(5).trim();
    }

    private static RouteData eventually(NameServerClient client, Predicate<RouteData> done) {
        return await().atMost(Duration.ofSeconds(15)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .until(() -> client.queryRoute("doomed").join(), done);
    }
}
