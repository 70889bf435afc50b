package io.ramjet.consoleit;

import io.ramjet.controller.ClusterSecret;
import io.ramjet.protocol.RamjetVersion;
import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console's views in Chromium against an embedded master (with its NameServer) and a slave
 * of it in this JVM: the rate chart drawn from the broker's own history as the page loads, the
 * connections and producers of a JMS client, the broker's version and the cluster (the group, its
 * slave in sync, the brokers the NameServer routes to), and a queue created and deleted from the page.
 */
class ConsoleViewsTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    static Path profile;
    @TempDir
    static Path slaveDir;
    private static ConsoleUnderTest console;
    private static Broker slave;

    @BeforeAll
    static void start() throws Exception {
        ClusterSecret secret = ClusterSecret.of(ClusterSecret.generate());
        console = ConsoleUnderTest.start(c -> c.clusterSecret(secret), profile);
        BrokerConfigBuilder config = BrokerConfig.builder(slaveDir).port(0).brokerId(1).nameServers(List.of())
                .clusterSecret(secret);
        config.store().segmentSize(64 << 20);
        slave = new Broker(config.build().withReplication(
                console.broker.broker().config().replication().asSlaveOf(console.broker.broker().address())));
        slave.start();
    }

    @AfterAll
    static void stop() {
        try {
            if (slave != null) {
                slave.close();
            }
        } finally {
            if (console != null) {
                console.close();
            }
        }
    }

    @Test
    void thePageChartsTheRatesTheBrokerKeptBeforeItWasOpened() throws Exception {
        String queue = "views.history";
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            try (MessageProducer producer = session.createProducer(session.createQueue(queue))) {
                for (int i = 0; i < 20; i++) {
                    producer.send(session.createTextMessage("m" + i));
                }
            }
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> get("/api/history?destination=QUEUE:" + queue)
                .matches(".*\"enqueue\":\\[[^\\]]*[1-9][^\\]]*\\].*"));
        WebDriver browser = console.browser;
        browser.get(console.url("/console/"));
        Chromium.await(browser, ExpectedConditions.textMatches(By.id("refreshed"), Pattern.compile("refreshed")));
        browser.findElement(By.cssSelector("#chart-for option[value='QUEUE:" + queue + "']")).click();
        Chromium.await(browser, d -> {
            Object peak = console.browser.executeScript(
                    "return chart && chart.data[0].length >= 2 ? Math.max(...chart.data[1]) : null");
            return peak instanceof Number n && n.doubleValue() > 0;
        });
        assertTrue(browser.findElements(By.cssSelector("#chart .u-legend .u-series")).size() >= 3,
                "a legend with time, enqueue/s and dequeue/s");
    }

    @Test
    void connectionsAndProducersShowWhoSendsWhereAndWhoConsumes() throws Exception {
        String queue = "views.orders";
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue destination = session.createQueue(queue);
            // the consumer is attached for as long as the page is looked at
            try (MessageProducer producer = session.createProducer(destination);
                 MessageConsumer ignored = session.createConsumer(destination)) {
                for (int i = 0; i < 3; i++) {
                    producer.send(session.createTextMessage("order " + i));
                }
                WebDriver browser = console.browser;
                browser.get(console.url("/console/"));
                By sends = By.cssSelector("#producers tr[data-destination='" + queue + "'] td[data-field='sends']");
                Chromium.await(browser, ExpectedConditions.textToBe(sends, "3"));
                Chromium.await(browser, d -> d.findElements(By.cssSelector("#connections tbody tr")).stream()
                        .anyMatch(row -> row.findElement(By.cssSelector("td[data-field='consumers']")).getText()
                                .equals("1") && row.findElement(By.cssSelector("td[data-field='sends']")).getText()
                                .equals("3")));
                assertEquals("QUEUE", browser.findElement(By.cssSelector("#producers tr[data-destination='" + queue
                        + "'] td[data-field='kind']")).getText());
            }
        }
    }

    @Test
    void theBrokersVersionAndTheClusterViewShowTheGroupItsSlaveInSyncAndTheNameServersRoutes() {
        WebDriver browser = console.browser;
        browser.get(console.url("/console/"));
        Chromium.await(browser, ExpectedConditions.textMatches(By.id("broker"),
                Pattern.compile("version " + Pattern.quote(RamjetVersion.VERSION) + ",")));
        String group = console.broker.broker().config().brokerName();
        Chromium.await(browser, ExpectedConditions.textMatches(By.id("group"),
                Pattern.compile("group " + Pattern.quote(group) + " .* is its MASTER")));
        Chromium.await(browser, ExpectedConditions.textToBe(
                By.cssSelector("#slaves tr[data-slave='1'] td[data-field='inSync']"), "yes"));
        By registered = By.cssSelector("#registered tr[data-group='" + group + "']");
        Chromium.await(browser, ExpectedConditions.textToBe(
                By.cssSelector("#registered tr[data-group='" + group + "'] td[data-field='master']"), "yes"));
        assertEquals(console.broker.broker().address(),
                browser.findElement(registered).findElement(By.cssSelector("td[data-field='address']")).getText());
        assertEquals(console.broker.nameServerAddress(),
                browser.findElement(registered).findElement(By.cssSelector("td[data-field='nameServer']")).getText());
    }

    @Test
    void aQueueCreatedInThePageIsListedAndDeletedFromIt() throws Exception {
        String queue = "views.created";
        WebDriver browser = console.browser;
        browser.get(console.url("/console/"));
        Chromium.await(browser, ExpectedConditions.textMatches(By.id("refreshed"), Pattern.compile("refreshed")));
        browser.findElement(By.id("create-name")).sendKeys(queue);
        browser.findElement(By.id("create-submit")).click();
        Chromium.await(browser, ExpectedConditions.alertIsPresent()).accept();
        By row = By.cssSelector("#destinations tr[data-destination='" + queue + "'][data-kind='QUEUE']");
        Chromium.await(browser, ExpectedConditions.presenceOfElementLocated(row));
        assertTrue(browser.findElement(By.id("status")).getText().contains("\"created\":true"),
                browser.findElement(By.id("status")).getText());
        assertTrue(get("/api/destinations").contains("\"name\":\"" + queue + "\""));

        browser.findElement(By.cssSelector("#destinations tr[data-destination='" + queue + "'] button.delete")).click();
        Chromium.await(browser, ExpectedConditions.alertIsPresent()).accept();
        Chromium.await(browser, ExpectedConditions.numberOfElementsToBe(row, 0));
        assertTrue(browser.findElement(By.id("status")).getText().contains("\"deleted\":true"),
                browser.findElement(By.id("status")).getText());
        assertTrue(!get("/api/destinations").contains("\"name\":\"" + queue + "\""));
    }

    private static Connection connect() throws Exception {
        return new RamjetConnectionFactory("ramjet://" + console.broker.nameServerAddress()).createConnection();
    }

    private static String get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(console.url(path))).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
