package io.ramjet.server.broker.console;

import io.ramjet.server.embedded.EmbeddedBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console's routes over HTTP on a broker without security: the page and the chart library
 * served from the class path, the JSON API's answers and refusals, the Prometheus endpoint beside
 * them. (The page itself runs in a browser in {@code console-it}.)
 */
class ConsoleApiTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static EmbeddedBroker broker;

    @BeforeAll
    static void start() {
        broker = EmbeddedBroker.start(c -> c.toBuilder().metricsPort(0).queues(List.of("orders", "emptied")).build());
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void theRootRedirectsToThePage() throws Exception {
        for (String path : List.of("/", "/console")) {
            HttpResponse<String> root = get(path);
            assertEquals(302, root.statusCode(), path);
            assertEquals("/console/", root.headers().firstValue("Location").orElse(null));
        }
        HttpResponse<String> page = get("/console/");
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
        assertTrue(page.body().contains("console.js"), page.body());
    }

    @Test
    void theChartLibraryComesFromItsWebJar() throws Exception {
        HttpResponse<String> uplot = get("/console/lib/uPlot.iife.min.js");
        assertEquals(200, uplot.statusCode());
        assertTrue(uplot.body().contains("uPlot"));
        assertEquals(200, get("/console/lib/uPlot.min.css").statusCode());
    }

    @Test
    void onlyTheConsolesOwnFilesAreServed() throws Exception {
        assertEquals(404, get("/console/nothing.js").statusCode());
        assertEquals(404, get("/console/lib/..%2F..%2Fpom.properties").statusCode());
        assertEquals(404, get("/console/Console.class").statusCode());
        assertEquals(404, get("/elsewhere").statusCode());
    }

    @Test
    void destinationsAreListedAsJson() throws Exception {
        HttpResponse<String> listing = get("/api/destinations?destination=orders");
        assertEquals(200, listing.statusCode());
        assertTrue(listing.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        assertEquals("[{\"name\":\"orders\",\"kind\":\"QUEUE\",\"temporary\":false,\"queueCount\":4,\"enqueued\":0,"
                + "\"ready\":0,\"inFlight\":0,\"redelivering\":0,\"delayed\":0,\"acknowledged\":0,\"consumers\":0,"
                + "\"subscriptions\":0}]", listing.body());
        assertTrue(get("/api/broker").body().contains("\"brokerName\":\"broker-a\""));
        assertEquals("[]", get("/api/consumers").body());
    }

    @Test
    void anEmptyQueueBrowsesAsOneLastPage() throws Exception {
        assertEquals("{\"destination\":\"orders\",\"messages\":[],\"nextQueue\":4,\"nextOffset\":0,\"end\":true}",
                get("/api/browse?destination=orders").body());
    }

    @Test
    void badCallsAreRefusedWithTheirStatus() throws Exception {
        assertEquals(404, get("/api/nothing").statusCode());
        assertEquals(405, get("/api/purge?destination=orders").statusCode());
        assertEquals(400, get("/api/browse").statusCode());
        assertEquals(400, get("/api/browse?destination=orders&limit=0").statusCode());
        assertEquals(400, get("/api/browse?destination=orders&selector=a%20%3D").statusCode());
        HttpResponse<String> unknown = get("/api/browse?destination=nowhere");
        assertEquals(404, unknown.statusCode());
        assertEquals("{\"error\":\"no queue named 'nowhere'\"}", unknown.body());
        assertEquals(400, post("/api/move?from=orders&to=orders", true).statusCode());
        assertEquals(404, post("/api/purge?destination=nowhere", true).statusCode());
    }

    @Test
    void anActionNeedsTheConsolesHeader() throws Exception {
        assertEquals(400, post("/api/purge?destination=emptied", false).statusCode());
        HttpResponse<String> purged = post("/api/purge?destination=emptied", true);
        assertEquals(200, purged.statusCode());
        assertEquals("{\"purged\":0}", purged.body());
    }

    @Test
    void prometheusIsStillServedBeside() throws Exception {
        HttpResponse<String> metrics = get("/metrics");
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.body().contains("ramjet_destinations"), metrics.body());
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String path, boolean consoleHeader) throws Exception {
        HttpRequest.Builder request = request(path).POST(HttpRequest.BodyPublishers.noBody());
        if (consoleHeader) {
            request.header(Console.ACTION_HEADER, "true");
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + broker.broker().metricsPort() + path))
                .timeout(Duration.ofSeconds(10));
    }
}
