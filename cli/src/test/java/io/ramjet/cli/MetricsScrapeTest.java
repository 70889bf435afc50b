package io.ramjet.cli;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The broker's Prometheus endpoint scraped over HTTP while a producer sends, and after: its values
 * against what was sent and consumed. (Here rather than in server/, because the load is sent by
 * the real JMS client, which this module's tests have.)
 */
class MetricsScrapeTest {

    private static final int SENT = 500;
    private static final int CONSUMED = 200;
    private static final int EXPIRED = 4;
    private static final int DEAD_LETTERED = 3;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void scrapesDuringALoadAgreeWithWhatWasSentAndConsumed() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(c -> c.toBuilder().metricsPort(0).build());
             Connection connection = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress())
                     .createConnection()) {
            URI endpoint = URI.create("http://127.0.0.1:" + broker.broker().metricsPort() + "/metrics");
            CompletableFuture<Void> load = CompletableFuture.runAsync(() -> send(connection, "load", SENT));
            List<Double> duringLoad = new ArrayList<>();
            while (!load.isDone()) {
                duringLoad.add(value(scrape(endpoint), "ramjet_destination_enqueued_total", "load"));
            }
            load.join();
            for (int i = 1; i < duringLoad.size(); i++) {
                assertTrue(duringLoad.get(i) >= duringLoad.get(i - 1) || duringLoad.get(i - 1).isNaN(),
                        "enqueued never goes down: " + duringLoad);
            }
            assertTrue(duringLoad.size() >= 2, "scraped during the load: " + duringLoad);

            connection.start();
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            try (MessageConsumer consumer = session.createConsumer(session.createQueue("load"))) {
                for (int i = 0; i < CONSUMED; i++) {
                    assertNotNull(consumer.receive(5_000), "message " + i);
                }
            }
            session.close();

            String text = scrapeUntil(endpoint, "ramjet_destination_acknowledged_total", "load", CONSUMED);
            assertEquals(SENT, value(text, "ramjet_destination_enqueued_total", "load"));
            assertEquals(SENT - CONSUMED, value(text, "ramjet_destination_ready", "load"));
            assertEquals(0, value(text, "ramjet_destination_in_flight", "load"));
            assertEquals(SENT, value(text, "ramjet_send_seconds_count", null));
            double smallestSendBucket = text.lines().filter(l -> l.startsWith("ramjet_send_seconds_bucket{"))
                    .map(l -> l.replaceAll(".*le=\"([^\"]+)\".*", "$1")).filter(le -> !le.equals("+Inf"))
                    .mapToDouble(Double::parseDouble).min().orElse(1);
            assertTrue(smallestSendBucket <= 10e-6, "send latencies are bucketed from microseconds: "
                    + smallestSendBucket);
            assertTrue(value(text, "ramjet_store_group_commit_appends_total", null) >= SENT, text);
            assertTrue(value(text, "ramjet_store_force_seconds_count", null) > 0);
            assertTrue(value(text, "ramjet_pull_seconds_count", null) > 0);
            assertEquals(1, value(text, "ramjet_connections", null));
            assertEquals(1, value(text, "ramjet_producers", null));
            // any memory area in use: the first one listed may be a survivor space emptied by a collection
            assertTrue(text.lines().anyMatch(l -> l.startsWith("jvm_memory_used_bytes{")
                    && Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)) > 0), "JVM memory metrics");
            assertTrue(text.contains("disk_free_bytes{"), "disk metrics");
        }
    }

    @Test
    void expiredAndDeadLetteredMessagesAreCountedPerDestination() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(c -> c.toBuilder().metricsPort(0).maxDeliveries(2).build());
             Connection connection = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress())
                     .createConnection()) {
            URI endpoint = URI.create("http://127.0.0.1:" + broker.broker().metricsPort() + "/metrics");
            connection.start();
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue("short"));
            // stored (not expired on arrival), but due only after it expired: the fetch expires it
            producer.setTimeToLive(1_000);
            producer.setDeliveryDelay(1_500);
            for (int i = 0; i < EXPIRED; i++) {
                producer.send(session.createTextMessage("e" + i));
            }
            send(connection, "poison", DEAD_LETTERED);
            DeadLetterMoveTest.rollBackUntilEmpty(connection, "poison");
            // every one due and in the queue before a consumer asks: an expired message is counted
            // when a fetch meets it, and a fetch only runs while the application asks for messages
            scrapeUntil(endpoint, "ramjet_destination_delayed", "short", 0);
            scrapeUntil(endpoint, "ramjet_destination_ready", "short", EXPIRED);
            try (MessageConsumer consumer = session.createConsumer(session.createQueue("short"))) {
                assertNull(consumer.receive(2_000), "an expired message is never delivered");
                String text = scrapeUntil(endpoint, "ramjet_destination_expired_total", "short", EXPIRED);
                assertEquals(0, value(text, "ramjet_destination_dead_lettered_total", "short"));
            }
            String text = scrapeUntil(endpoint, "ramjet_destination_dead_lettered_total", "poison", DEAD_LETTERED);
            assertEquals(0, value(text, "ramjet_destination_expired_total", "poison"));
            assertEquals(DEAD_LETTERED, value(text, "ramjet_destination_enqueued_total", "DLQ.poison"));
            assertEquals(1, value(text, "ramjet_producers", null), "the one connection that sent");
            assertTrue(value(text, "ramjet_store_group_commit_batch_count", null) > 0, text);
            assertTrue(value(text, "ramjet_store_group_commit_batch_sum", null)
                    >= EXPIRED + DEAD_LETTERED, "each persistent send waited for a force");
            assertTrue(text.contains("ramjet_store_group_commit_batch_bucket{"), "batch size distribution");
            assertTrue(text.contains("ramjet_store_force_seconds_bucket{"), "fsync time distribution");
            assertTrue(value(text, "ramjet_store_dispatch_lag_bytes", null) >= 0, text);
            assertEquals(broker.broker().config().diskUseLimit(), value(text, "ramjet_disk_use_limit", null));
            assertTrue(value(text, "process_uptime_seconds", null) > 0, "JVM and process meters");
            assertTrue(value(text, "jvm_threads_live_threads", null) > 0, "JVM thread meters");
            connection.close();
            scrapeUntil(endpoint, "ramjet_producers", null, 0);
        }
    }

    @Test
    void jmxPublishesTheMetersWithoutAScrapeEndpoint() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(c -> c.toBuilder().metricsJmx(true).build());
             Connection connection = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress())
                     .createConnection()) {
            send(connection, "jmx", 3);
            assertEquals(-1, broker.broker().metricsPort());
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            String brokerName = broker.broker().config().brokerName();
            Set<ObjectName> sendTimers = server.queryNames(new ObjectName("ramjet:type=broker,name=send,broker="
                    + brokerName), null);
            assertEquals(1, sendTimers.size(), () -> "the send timer among " + names(server));
            ObjectName sends = sendTimers.iterator().next();
            ObjectName ready = new ObjectName("ramjet:type=destination,name=ready,broker=" + brokerName
                    + ",destination=jmx,kind=QUEUE");
            // destinations' gauges appear with the first sample of the destinations
            await().atMost(Duration.ofSeconds(30)).until(() -> server.isRegistered(ready));
            assertEquals(3L, ((Number) server.getAttribute(sends, "Count")).longValue());
        }
    }

    private static Set<ObjectName> names(MBeanServer server) {
        try {
            return server.queryNames(new ObjectName("ramjet:*"), null);
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void send(Connection connection, String queue, int count) {
        try (Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE)) {
            MessageProducer producer = session.createProducer(session.createQueue(queue));
            for (int i = 0; i < count; i++) {
                producer.send(session.createTextMessage("m" + i));
            }
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String scrape(URI endpoint) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(5))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
        return response.body();
    }

    /**
     * Scrapes until the metric shows {@code expected}: acknowledgements are logged after the
     * consumer closes, a closed connection is noticed a moment later.
     */
    private static String scrapeUntil(URI endpoint, String metric, String destination, double expected) {
        AtomicReference<String> text = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10))
                .untilAsserted(() -> {
                    text.set(scrape(endpoint));
                    assertEquals(expected, value(text.get(), metric, destination), metric);
                });
        return text.get();
    }

    /** The value of the first sample of {@code metric} (of that destination, when given); NaN when there is none. */
    private static double value(String text, String metric, String destination) {
        Pattern line = Pattern.compile("^" + Pattern.quote(metric) + "\\{([^}]*)\\} (\\S+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(text);
        while (m.find()) {
            if (destination == null || m.group(1).contains("destination=\"" + destination + "\"")) {
                return Double.parseDouble(m.group(2));
            }
        }
        return Double.NaN;
    }
}
