package io.ramjet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.ramjet.protocol.remoting.NameServerClient;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code queue create --groups} and {@code queue extend}: an operator places a queue on named
 * groups, live; {@code queue stat} marks a group that is down instead of leaving it out.
 */
class DestinationPlacementTest extends TwoBrokerClusterTestSupport {

    private String group(int broker) {
        return cluster.broker(broker).config().brokerName();
    }

    private List<String> groupsRouting(String queue) {
        return new NameServerClient(remoting, List.of(cluster.nameServerAddress()), REQUEST).queryRoute(queue).join()
                .brokers().stream().map(r -> r.broker().brokerName()).sorted().toList();
    }

    @Test
    void aQueueCreatedOnOneGroupIsExtendedOntoAnotherLive() {
        cli.json("queue", "create", "orders", "--groups", group(0));
        await().atMost(REQUEST).until(() -> groupsRouting("orders").equals(List.of(group(0))));

        cli.json("queue", "extend", "orders", "--groups", group(1));
        await().atMost(REQUEST).until(() -> groupsRouting("orders").equals(List.of(group(0), group(1)).stream()
                .sorted().toList()));
    }

    @Test
    void extendingAQueueNoGroupHoldsOrOntoAnUnknownGroupIsRefused() {
        assertEquals(1, cli.run("queue", "extend", "nowhere", "--groups", group(1)));
        assertEquals(List.of(), groupsRouting("nowhere"));
        cli.json("queue", "create", "orders", "--groups", group(0));
        assertEquals(1, cli.run("queue", "extend", "orders", "--groups", "nosuch"));
        assertEquals(1, cli.run("queue", "extend", "orders"));
    }

    @Test
    void statMarksAGroupThatIsDownBesideWhatTheLiveOneCounts() {
        cli.json("queue", "create", "orders", "--groups", group(0) + "," + group(1));
        await().atMost(REQUEST).until(() -> groupsRouting("orders").size() == 2);
        String down = group(1);
        cluster.stopBroker(1);
        await().atMost(REQUEST).until(() -> groupsRouting("orders").equals(List.of(group(0))));

        for (JsonNode rows : List.of(cli.json("queue", "stat"), cli.json("queue", "stat", "--name", "orders"))) {
            Map<String, String> states = new TreeMap<>();
            rows.forEach(r -> {
                if ("orders".equals(r.path("name").asText())) {
                    states.put(r.get("broker").asText(), r.get("state").asText());
                }
            });
            assertEquals(Map.of(group(0), DestinationStat.UP, down, DestinationStat.DOWN), states, rows.toString());
            rows.forEach(r -> assertEquals(r.get("state").asText().equals(DestinationStat.UP), r.has("ready"),
                    "counts only where the broker answered: " + r));
        }
    }
}
