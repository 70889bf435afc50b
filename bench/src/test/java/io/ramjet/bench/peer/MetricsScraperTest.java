package io.ramjet.bench.peer;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The metrics peer's broker serves its metrics on the port the property names, and the scraper reads them. */
class MetricsScraperTest {

    @Test
    void scrapesTheRamjetPeersMetricsEndpoint() throws Exception {
        int metricsPort = PeerProcess.freePort();
        try (TemporaryDirectory data = new TemporaryDirectory("metrics-scraper-test");
             PeerProcess peer = PeerProcess.start(RamjetServerMain.class, "256m", null,
                     List.of("-D" + RamjetServerMain.METRICS_PORT + "=" + metricsPort), data.path().resolve("data"),
                     "64");
             MetricsScraper scraper = MetricsScraper.start(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"),
                     Duration.ofMillis(100))) {
            await().atMost(Duration.ofSeconds(20)).until(() -> scraper.answered() >= 3 || scraper.failed() > 0);
            assertEquals(0, scraper.failed(), "every scrape answered");
            assertTrue(scraper.answered() >= 3, scraper.answered() + " scrapes answered");
        }
    }

    @Test
    void countsTheScrapesOfAPortNobodyServes() throws Exception {
        try (MetricsScraper scraper = MetricsScraper.start(
                URI.create("http://127.0.0.1:" + PeerProcess.freePort() + "/metrics"), Duration.ofMillis(100))) {
            await().atMost(Duration.ofSeconds(20)).until(() -> scraper.failed() > 0);
            assertTrue(scraper.failed() > 0, "a refused scrape counts as failed");
            assertEquals(0, scraper.answered());
        }
    }
}
