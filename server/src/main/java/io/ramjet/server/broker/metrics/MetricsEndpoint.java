package io.ramjet.server.broker.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.jmx.JmxReporter;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * Where the broker's metrics go: a Prometheus scrape endpoint ({@code GET /metrics} on an HTTP
 * port, the JDK's own HTTP server, one thread) and, when asked, JMX through Micrometer's JMX
 * registry (domain {@code ramjet}, names as {@link JmxNames} gives them). Each scrape samples the destinations first. The same port
 * serves what else the broker mounts on it ({@link #serve}: the web console).
 */
public final class MetricsEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry prometheus;
    private final BrokerMetrics metrics;
    private final HttpServer http;
    private final ExecutorService executor;
    /** Admits a scrape or answers it (401, 403...) itself; null admits every scrape. */
    private volatile Guard guard;

    /** Who may scrape: decides on the exchange, answering it itself when it refuses. */
    @FunctionalInterface
    public interface Guard {
        /** Whether the scrape may go on; when not, the exchange has been answered. */
        boolean admit(HttpExchange exchange) throws IOException;
    }

    /**
     * @param port    the HTTP port of the scrape endpoint, 0 for an ephemeral one, -1 for none
     * @param jmx     whether to publish the meters through JMX too
     * @param meters  builds the broker's meters on the registry given
     */
    public MetricsEndpoint(String host, int port, boolean jmx, String brokerName,
                           Function<MeterRegistry, BrokerMetrics> meters) {
        CompositeMeterRegistry registry = new CompositeMeterRegistry();
        registry.config().commonTags("broker", brokerName);
        prometheus = port >= 0 ? new PrometheusMeterRegistry(PrometheusConfig.DEFAULT) : null;
        if (prometheus != null) {
            registry.add(prometheus);
        }
        if (jmx) {
            JmxConfig config = new JmxConfig() {
                @Override
                public String get(String key) {
                    return null;
                }

                @Override
                public String domain() {
                    return "ramjet";
                }
            };
            JmxNames names = new JmxNames();
            MetricRegistry dropwizard = new MetricRegistry();
            registry.add(new JmxMeterRegistry(config, Clock.SYSTEM, names, dropwizard, JmxReporter
                    .forRegistry(dropwizard).inDomain(config.domain()).createsObjectNamesWith(names).build()));
        }
        metrics = meters.apply(registry);
        if (prometheus == null) {
            http = null;
            executor = null;
            return;
        }
        try {
            http = HttpServer.create(new InetSocketAddress(host, port), 0);
        } catch (IOException e) {
            metrics.close();
            throw new UncheckedIOException("cannot bind the metrics port " + host + ":" + port, e);
        }
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "ramjet-metrics-http");
            thread.setDaemon(true);
            return thread;
        });
        http.setExecutor(executor);
        http.createContext("/metrics", this::scrape);
        http.start();
        LOG.info("broker {}: Prometheus metrics on http://{}:{}/metrics", brokerName, host, port());
    }

    public BrokerMetrics metrics() {
        return metrics;
    }

    /** From now on every scrape passes {@code scrapeGuard} first (the console's login, for instance). */
    public void guardScrapes(Guard scrapeGuard) {
        this.guard = scrapeGuard;
    }

    /**
     * Serves the paths under {@code prefix} (the longest prefix of a request's path wins) with
     * {@code handler}, on the endpoint's one HTTP thread.
     *
     * @throws IllegalStateException when there is no HTTP port (JMX only)
     */
    public void serve(String prefix, HttpHandler handler) {
        if (http == null) {
            throw new IllegalStateException("no HTTP port to serve " + prefix + " on");
        }
        http.createContext(prefix, handler);
    }

    /** The bound port of the scrape endpoint, -1 when there is none. */
    public int port() {
        return http == null ? -1 : http.getAddress().getPort();
    }

    private void scrape(HttpExchange exchange) throws IOException {
        try (exchange) {
            Guard scrapeGuard = guard;
            if (scrapeGuard != null && !scrapeGuard.admit(exchange)) {
                return;
            }
            if (!"GET".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body;
            try {
                metrics.sample();
                body = prometheus.scrape().getBytes(StandardCharsets.UTF_8);
            } catch (RuntimeException e) {
                // without an answer the JDK's server would close the connection without a word
                LOG.warn("a metrics scrape failed", e);
                exchange.sendResponseHeaders(500, -1);
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        if (http != null) {
            http.stop(0);
            executor.shutdownNow();
        }
        metrics.close();
    }
}
