package io.ramjet.consoleit;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console in a real headless Chromium against an embedded broker without security: a queue
 * filled through JMS while the page is open shows its depth and its messages, and a purge
 * clicked in the page (its confirmation accepted) empties it, as a browser and a consumer of the
 * queue then see. The page's screenshot is kept as {@code target/console-screenshot.png}.
 */
class ConsoleBrowserTest {

    private static final String QUEUE = "console.orders";
    private static final int SENT = 25;
    private static final Path SCREENSHOT = Path.of("target", "console-screenshot.png");

    @TempDir
    static Path profile;
    private static ConsoleUnderTest console;

    @BeforeAll
    static void start() {
        console = ConsoleUnderTest.start(c -> c, profile);
    }

    @AfterAll
    static void stop() {
        if (console != null) {
            console.close();
        }
    }

    @Test
    void aQueueJustFilledShowsItsDepthAndAPurgeInThePageEmptiesIt() throws Exception {
        ChromeDriver browser = console.browser;
        try (Connection connection = new RamjetConnectionFactory("ramjet://" + console.broker.nameServerAddress())
                .createConnection()) {
            browser.get(console.url("/"));
            Chromium.await(browser, ExpectedConditions.textMatches(By.id("refreshed"), Pattern.compile("refreshed")));
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(QUEUE);
            try (MessageProducer producer = session.createProducer(queue)) {
                for (int i = 0; i < SENT; i++) {
                    producer.send(session.createTextMessage("order " + i));
                }
            }
            By ready = By.cssSelector("tr[data-destination='" + QUEUE + "'][data-kind='QUEUE'] td[data-field='ready']");
            Chromium.await(browser, ExpectedConditions.textToBe(ready, String.valueOf(SENT)));
            Chromium.await(browser, d -> !d.findElement(By.cssSelector("tr[data-destination='" + QUEUE
                    + "'] td[data-field='enqueueRate']")).getText().isEmpty());
            browser.findElement(By.cssSelector("tr[data-destination='" + QUEUE + "'] button.browse")).click();
            Chromium.await(browser,
                    ExpectedConditions.numberOfElementsToBe(By.cssSelector("#messages tbody tr"), SENT));
            Files.createDirectories(SCREENSHOT.getParent());
            Files.copy(browser.getScreenshotAs(OutputType.FILE).toPath(), SCREENSHOT,
                    StandardCopyOption.REPLACE_EXISTING);

            WebElement purge = browser.findElement(By.cssSelector("tr[data-destination='" + QUEUE + "'] button.purge"));
            purge.click();
            Chromium.await(browser, ExpectedConditions.alertIsPresent()).accept();
            Chromium.await(browser, ExpectedConditions.textToBe(ready, "0"));
            assertTrue(browser.findElement(By.id("status")).getText().contains("\"purged\":" + SENT),
                    browser.findElement(By.id("status")).getText());

            try (QueueBrowser browse = session.createBrowser(queue)) {
                assertFalse(browse.getEnumeration().hasMoreElements(), "a browser of the purged queue sees nothing");
            }
            connection.start();
            try (MessageConsumer consumer = session.createConsumer(queue)) {
                assertNull(consumer.receive(1_000), "a consumer of the purged queue gets nothing");
            }
        }
    }
}
