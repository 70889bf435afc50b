package io.ramjet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.CreateDestinationRequest;
import io.ramjet.protocol.frame.Frame;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code nameserver brokers|routes} against one NameServer with two brokers registered. */
class NameServerCommandTest extends TwoBrokerClusterTestSupport {

    @Test
    void brokersListsBothRegisteredBrokers() {
        JsonNode rows = cli.json("nameserver", "brokers");
        assertEquals(2, rows.size(), rows.toString());
        List<String> addresses = new ArrayList<>();
        rows.forEach(r -> {
            assertEquals(cluster.nameServerAddress(), r.get("nameServer").asText());
            assertEquals(0, r.get("brokerId").asLong());
            addresses.add(r.get("address").asText());
        });
        assertEquals(List.of(cluster.broker(0).address(), cluster.broker(1).address()).stream().sorted().toList(),
                addresses.stream().sorted().toList());
    }

    @Test
    void routesShowEachBrokersQueuesOfADestination() throws Exception {
        create(0, "orders", DestinationKind.QUEUE, 4);
        create(1, "orders", DestinationKind.QUEUE, 2);
        create(1, "prices", DestinationKind.TOPIC, 3);
        Map<String, Integer> orders = awaitRoute("orders", 2);
        assertEquals(Map.of(cluster.broker(0).address(), 4, cluster.broker(1).address(), 2), orders);

        JsonNode all = cli.json("nameserver", "routes");
        Map<String, String> kinds = new TreeMap<>();
        all.forEach(r -> kinds.put(r.get("destination").asText() + "@" + r.get("address").asText(),
                r.get("kind").asText() + "/" + r.get("queues").asInt() + "/" + r.get("permissions").asText()));
        assertEquals("TOPIC/3/rw", kinds.get("prices@" + cluster.broker(1).address()), all.toString());
        assertEquals("QUEUE/4/rw", kinds.get("orders@" + cluster.broker(0).address()), all.toString());
        assertEquals(0, cli.json("nameserver", "routes", "nowhere").size());
    }

    @Test
    void withOneNameServerDownBrokersAndRoutesShowWhatTheLiveOneKnowsAndMarkTheOther() throws Exception {
        String down;
        try (java.net.ServerSocket closed = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            down = "127.0.0.1:" + closed.getLocalPort();
        }
        create(0, "orders", DestinationKind.QUEUE, 4);
        awaitRoute("orders", 1);
        Cli partial = new Cli("ramjet://" + cluster.nameServerAddress() + "," + down);

        JsonNode brokers = partial.json("nameserver", "brokers");
        List<String> rows = new ArrayList<>();
        brokers.forEach(r -> rows.add(r.get("nameServer").asText() + " " + r.get("broker").asText()));
        assertEquals(3, rows.size(), brokers.toString());
        assertEquals(1, rows.stream().filter(r -> r.equals(down + " " + NameServerCommand.UNREACHABLE)).count(),
                brokers.toString());

        JsonNode routes = partial.json("nameserver", "routes", "orders");
        Map<String, String> byNameServer = new TreeMap<>();
        routes.forEach(r -> byNameServer.put(r.get("nameServer").asText(), r.get("broker").asText()));
        assertEquals(NameServerCommand.UNREACHABLE, byNameServer.get(down), routes.toString());
        assertEquals(cluster.broker(0).config().brokerName(), byNameServer.get(cluster.nameServerAddress()),
                routes.toString());
    }

    private void create(int broker, String name, DestinationKind kind, int queues) throws Exception {
        remoting.invokeSync(cluster.broker(broker).address(), Frame.request(CommandCode.CREATE_DESTINATION,
                new CreateDestinationRequest(name, kind, queues)), REQUEST);
    }

    /** The queues per broker address of the route, once the NameServer has {@code brokers} brokers in it. */
    private Map<String, Integer> awaitRoute(String destination, int brokers) {
        return await("the NameServer routes " + destination + " to " + brokers + " brokers")
                .atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .until(() -> routeQueues(destination), queues -> queues.size() == brokers);
    }

    private Map<String, Integer> routeQueues(String destination) throws Exception {
        Map<String, Integer> queues = new TreeMap<>();
        cli.json("nameserver", "routes", destination)
                .forEach(r -> queues.put(r.get("address").asText(), r.get("queues").asInt()));
        return queues;
    }
}
