package io.ramjet.server.broker.metrics;

import io.ramjet.server.embedded.EmbeddedBroker;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Grafana dashboard in {@code docs/grafana/} queries only what a real broker exposes and
 * {@code docs/operations.md} documents: every metric name in its queries (panels and template
 * variables) is in the scrape of an embedded broker with a queue and in the page's meter table,
 * and every label a query selects on is one that metric carries.
 */
class GrafanaDashboardTest {

    private static final Path DASHBOARD = Path.of("..", "docs", "grafana", "ramjet-dashboard.json");
    private static final Path OPERATIONS = Path.of("..", "docs", "operations.md");
    /** A query string of the dashboard's JSON: a panel's {@code expr} or a variable's {@code definition}. */
    private static final Pattern QUERY = Pattern.compile("\"(expr|definition)\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern METRIC = Pattern.compile("\\b(?:ramjet|jvm|process|system|disk)_[a-z0-9_]+\\b");
    private static final Pattern SELECTOR = Pattern.compile("\\b([a-z_][a-z0-9_]*)\\{([^}]*)}");
    private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_]\\w*)\\s*(?:=~|!~|!=|=)");

    @Test
    void everyMetricAndLabelTheDashboardQueriesIsInABrokersScrape() throws Exception {
        List<String> queries = queries(Files.readString(DASHBOARD));
        String scrape;
        try (EmbeddedBroker broker = EmbeddedBroker.start(c -> c.toBuilder().metricsPort(0)
                .queues(List.of("dashboard.orders")).build())) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + broker.broker().metricsPort() + "/metrics")).timeout(Duration.ofSeconds(10))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode());
            scrape = response.body();
        }
        List<String> samples = scrape.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        Set<String> exposed = new TreeSet<>();
        samples.forEach(l -> exposed.add(l.split("[{ ]", 2)[0]));

        Set<String> queried = new TreeSet<>();
        List<String> missing = new ArrayList<>();
        for (String query : queries) {
            Matcher metric = METRIC.matcher(query);
            while (metric.find()) {
                queried.add(metric.group());
                if (!exposed.contains(metric.group())) {
                    missing.add(metric.group() + " in " + query);
                }
            }
            Matcher selector = SELECTOR.matcher(query);
            while (selector.find()) {
                String name = selector.group(1);
                Matcher label = MATCHER.matcher(selector.group(2));
                while (label.find()) {
                    String wanted = label.group(1) + "=\"";
                    if (samples.stream().noneMatch(l -> l.startsWith(name + "{") && l.contains(wanted))) {
                        missing.add(name + " has no label " + label.group(1) + " (" + query + ")");
                    }
                }
            }
        }
        assertTrue(queried.size() >= 20, "the dashboard's queries were read: " + queried);
        assertEquals(List.of(), missing, "queried by the dashboard, absent from the scrape");
    }

    @Test
    void everyMetricTheDashboardQueriesIsOneTheOperationsPageDocuments() throws Exception {
        Set<String> documented = documentedMeters(Files.readString(OPERATIONS));
        assertTrue(documented.size() >= 20, "the page's meter table was read: " + documented);
        Set<String> undocumented = new TreeSet<>();
        for (String query : queries(Files.readString(DASHBOARD))) {
            Matcher metric = METRIC.matcher(query);
            while (metric.find()) {
                String meter = metric.group().replaceFirst("_(bucket|count|sum)$", "");
                if (!documented.contains(meter) && documented.stream().noneMatch(
                        d -> d.endsWith("_*") && meter.startsWith(d.substring(0, d.length() - 1)))) {
                    undocumented.add(meter);
                }
            }
        }
        assertEquals(Set.of(), undocumented, "queried by the dashboard, not in the meter table of " + OPERATIONS);
    }

    /**
     * The Prometheus names in the first column of the meter table: {@code `ramjet_destination_ready`,
     * `_in_flight`} names {@code ramjet_destination_in_flight} too (a name starting with {@code _}
     * replaces the last word of the full name before it), {@code `jvm_*`} every name it starts.
     */
    private static Set<String> documentedMeters(String page) {
        Set<String> meters = new TreeSet<>();
        String section = page.substring(page.indexOf("## Metrics"));
        for (String line : section.lines().takeWhile(l -> !l.startsWith("## ") || l.startsWith("## Metrics"))
                .filter(l -> l.startsWith("| `")).toList()) {
            Matcher name = Pattern.compile("`([a-z_*]+)`").matcher(line.substring(1).split("\\|", 2)[0]);
            String full = null;
            while (name.find()) {
                String meter = name.group(1);
                if (meter.startsWith("_") && full != null) {
                    meters.add(full.substring(0, full.lastIndexOf('_')) + meter);
                } else {
                    full = meter;
                    meters.add(meter);
                }
            }
        }
        return meters;
    }

    private static List<String> queries(String json) {
        List<String> out = new ArrayList<>();
        Matcher m = QUERY.matcher(json);
        while (m.find()) {
            out.add(m.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
        }
        return out;
    }
}
