package io.ramjet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.destination.Destination;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code queue create --groups} and {@code queue extend}: an operator places a queue on named
 * groups, live; {@code topic extend} takes the topic's durable subscriptions along; {@code queue
 * stat} marks a group that is down instead of leaving it out.
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

    /**
     * A durable subscription made while its topic lived on one group receives what producers send
     * to a group the topic is extended onto, also what they send there before its consumer
     * comes back (and so before the consumer's discovery could make the subscription there).
     */
    @Test
    void aTopicExtendedOntoAnotherGroupTakesItsDurableSubscriptions() throws Exception {
        cli.json("topic", "create", "prices", "--groups", group(0));
        await().atMost(REQUEST).until(() -> groupsRouting("prices").equals(List.of(group(0))));
        ConnectionFactory factory = new RamjetConnectionFactory("ramjet://" + cluster.nameServerAddress());
        try (Connection subscriber = factory.createConnection()) {
            subscriber.setClientID("billing");
            Session session = subscriber.createSession(Session.AUTO_ACKNOWLEDGE);
            session.createDurableSubscriber(session.createTopic("prices"), "sub", "colour = 'red'", false).close();
        }

        JsonNode extended = cli.json("topic", "extend", "prices", "--groups", group(1));
        assertEquals("[\"billing/sub\"]", extended.get("durableSubscriptions").toString());
        await().atMost(REQUEST).until(() -> groupsRouting("prices").size() == 2);
        try (Connection producing = factory.createConnection()) {
            // two sessions of one connection take consecutive choices: one sends to each group
            for (int s = 0; s < 2; s++) {
                Session session = producing.createSession(Session.AUTO_ACKNOWLEDGE);
                MessageProducer producer = session.createProducer(session.createTopic("prices"));
                for (String colour : List.of("red", "blue")) {
                    Message m = session.createTextMessage(colour + "-" + s);
                    m.setStringProperty("colour", colour);
                    producer.send(m);
                }
            }
        }
        assertEquals(List.of(2L, 2L), List.of(topicStored(0), topicStored(1)), "each group got one session's");

        Set<String> received = new TreeSet<>();
        try (Connection subscriber = factory.createConnection()) {
            subscriber.setClientID("billing");
            Session session = subscriber.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createDurableSubscriber(session.createTopic("prices"), "sub",
                    "colour = 'red'", false);
            subscriber.start();
            long deadline = System.nanoTime() + REQUEST.toNanos();
            while (received.size() < 2 && System.nanoTime() < deadline) {
                Message m = consumer.receive(100);
                if (m != null) {
                    received.add(((TextMessage) m).getText());
                }
            }
        }
        assertEquals(Set.of("red-0", "red-1"), received);
    }

    /** How many messages the topic {@code prices} holds on a broker. */
    private long topicStored(int broker) {
        Broker b = cluster.broker(broker);
        String storageName = Destination.storageName(DestinationKind.TOPIC, "prices");
        return IntStream.range(0, b.config().queuesPerDestination())
                .mapToLong(q -> b.store().maxQueueOffset(storageName, q)).sum();
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
