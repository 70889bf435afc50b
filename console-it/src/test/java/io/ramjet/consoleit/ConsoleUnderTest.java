package io.ramjet.consoleit;

import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import io.ramjet.server.embedded.EmbeddedBroker;
import org.openqa.selenium.chrome.ChromeDriver;

import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * An embedded broker with its console on an ephemeral port and a headless Chromium to open it,
 * started and closed together: one of each per test class.
 */
final class ConsoleUnderTest implements AutoCloseable {

    final EmbeddedBroker broker;
    final ChromeDriver browser;

    private ConsoleUnderTest(EmbeddedBroker broker, ChromeDriver browser) {
        this.broker = broker;
        this.browser = browser;
    }

    /** @param profile an empty directory for the browser's profile */
    static ConsoleUnderTest start(UnaryOperator<BrokerConfigBuilder> tuning, Path profile) {
        EmbeddedBroker broker = EmbeddedBroker.start(c -> tuning.apply(c.toBuilder().metricsPort(0)).build());
        try {
            return new ConsoleUnderTest(broker, Chromium.start(profile));
        } catch (RuntimeException | Error e) {
            broker.close();
            throw e;
        }
    }

    /** The address of a path on the console's port. */
    String url(String path) {
        return "http://127.0.0.1:" + broker.broker().metricsPort() + path;
    }

    @Override
    public void close() {
        try {
            browser.quit();
        } finally {
            broker.close();
        }
    }
}
