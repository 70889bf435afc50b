package io.ramjet.bench.peer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scrapes a peer's Prometheus endpoint at a fixed interval for the peer's whole life, as a
 * Prometheus server would: what metrics cost a broker is their recording on the message path and
 * these scrapes (each samples every destination). Logs how many scrapes answered when closed, so
 * a run whose scrapes failed (and so cost nothing) shows it.
 */
public final class MetricsScraper implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsScraper.class);

    private final URI endpoint;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "metrics-scraper");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong lastBytes = new AtomicLong();

    private MetricsScraper(URI endpoint) {
        this.endpoint = endpoint;
    }

    /** Scrapes {@code endpoint} every {@code interval}, the first time at once. */
    public static MetricsScraper start(URI endpoint, Duration interval) {
        MetricsScraper scraper = new MetricsScraper(endpoint);
        scraper.timer.scheduleAtFixedRate(scraper::scrape, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        return scraper;
    }

    private void scrape() {
        try {
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(endpoint)
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() == 200) {
                answered.incrementAndGet();
                lastBytes.set(response.body().length);
                return;
            }
            fail("status " + response.statusCode());
        } catch (IOException e) {
            fail(e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void fail(String why) {
        if (failed.incrementAndGet() == 1) {
            LOG.warn("scraping {} failed: {}", endpoint, why);
        }
    }

    /** Scrapes answered with 200 so far. */
    public long answered() {
        return answered.get();
    }

    /** Scrapes that failed so far. */
    public long failed() {
        return failed.get();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        LOG.info("{}: {} scrapes answered ({} bytes the last), {} failed", endpoint, answered.get(), lastBytes.get(),
                failed.get());
    }
}
