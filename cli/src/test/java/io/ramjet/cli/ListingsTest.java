package io.ramjet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code subscription list|purge|delete}, {@code consumer list}, {@code broker}, {@code producer}, {@code consumer}. */
class ListingsTest extends DeploymentTest {

    @Test
    void durableSubscriptionIsListedWithItsBacklogThenPurgedAndDeleted() throws JMSException {
        try (Connection connection = factory.createConnection()) {
            connection.setClientID("app");
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Topic prices = session.createTopic("prices");
            session.createDurableSubscriber(prices, "sub", "colour = 'red'", false).close();
            try (var producer = session.createProducer(prices)) {
                for (String colour : new String[] {"red", "red", "blue"}) {
                    var m = session.createTextMessage(colour);
                    m.setStringProperty("colour", colour);
                    producer.send(m);
                }
            }
            JsonNode subscription = cli.json("subscription", "list", "--destination", "prices").get(0);
            assertEquals("DURABLE", subscription.get("kind").asText());
            assertEquals("app", subscription.get("clientId").asText());
            assertEquals("sub", subscription.get("name").asText());
            assertEquals("colour = 'red'", subscription.get("selector").asText());
            assertEquals(0, subscription.get("consumers").asInt());
            assertTrue(subscription.get("backlog").asLong() >= 2, "the two red ones at least: " + subscription);

            long purged = cli.json("subscription", "purge", "sub", "--client-id", "app").get("purged").asLong();
            assertEquals(subscription.get("backlog").asLong(), purged);
            assertEquals(0, cli.json("subscription", "list", "--destination", "prices").get(0).get("backlog").asLong());
            assertNotEquals(0, cli.run("subscription", "delete", "sub", "--client-id", "app"),
                    "refused while the application holds its client id");
        }
        cli.json("subscription", "delete", "sub", "--client-id", "app");
        assertEquals(0, cli.json("subscription", "list", "--destination", "prices").size());
    }

    @Test
    void consumerListShowsConnectionAndSelector() throws JMSException {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            session.createConsumer(session.createQueue("orders"), "n > 1");
            JsonNode consumer = cli.json("consumer", "list", "--destination", "orders").get(0);
            assertEquals("orders", consumer.get("destination").asText());
            assertEquals("n > 1", consumer.get("selector").asText());
            assertTrue(consumer.get("connection").asText().startsWith("127.0.0.1:"), consumer.toString());
            assertEquals(1, cli.stat("orders").get("consumers").asInt());
        }
    }

    @Test
    void producerSendsAndConsumerReceivesWhatItSent() {
        assertEquals(3, cli.json("producer", "-d", "orders", "-n", "3", "--body", "hello %d", "-p", "colour=red")
                .get("sent").asInt());
        JsonNode received = cli.json("consumer", "-d", "orders", "-n", "5", "--wait", "500",
                "--selector", "colour = 'red'");
        assertEquals(3, received.size());
        assertEquals("hello 0", received.get(0).get("body").asText());
        assertEquals("red", received.get(0).get("properties").get("colour").asText());
        assertEquals(0, cli.stat("orders").get("ready").asLong());
    }

    @Test
    void sizesAreShownInTheirUnit() {
        assertEquals("812 B", BrokerCommand.size(812));
        assertEquals("4.2 KiB", BrokerCommand.size(4_260));
        assertEquals("1024.0 MiB", BrokerCommand.size((1L << 30) - 1));
        assertEquals("1.0 GiB", BrokerCommand.size(1L << 30));
    }

    @Test
    void brokerFactsReportTheStore() {
        cli.json("producer", "-d", "orders", "-n", "2");
        JsonNode facts = cli.json("broker").get(0);
        assertEquals(deployment.broker.broker().config().brokerName(), facts.get("brokerName").asText());
        assertTrue(facts.get("commitLogBytes").asLong() > 0);
        var store = deployment.broker.broker().store();
        assertEquals(store.maxPhysicalOffset() - store.minPhysicalOffset(), facts.get("commitLogRetainedBytes").asLong(),
                "what the metric ramjet_store_commitlog_bytes says");
        assertTrue(facts.get("commitLogRetainedBytes").asLong() < facts.get("commitLogBytes").asLong(),
                "two small messages in a preallocated segment");
        assertTrue(facts.get("uptimeMillis").asLong() >= 0);
        assertTrue(facts.get("diskTotalBytes").asLong() > 0);
        assertEquals(0, facts.get("openTransactions").asInt());
        assertEquals(1, facts.get("destinations").asInt());
    }
}
