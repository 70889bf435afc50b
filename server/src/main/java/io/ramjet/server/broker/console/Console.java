package io.ramjet.server.broker.console;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.ramjet.server.broker.error.BrokerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The web console's routes on an HTTP server: {@code /} and {@code /console} redirect to {@code /console/}, the page
 * and its files under {@code /console/}, the JSON API under {@code /api/}. Every request passes
 * the {@link ConsoleGate} first. The actions are POSTs that must carry the header
 * {@value #ACTION_HEADER}, which a page of another site cannot send without the broker's consent
 * (it gives none), so a browser holding the operator's credentials cannot be made to purge from
 * elsewhere. Every answer carries {@link #SECURITY_HEADERS}: the page and its scripts come only
 * from the broker, no other site may frame it, nothing is sniffed as another type, and no
 * address of it leaks to another site. Handlers run on the HTTP server's thread.
 */
public final class Console {

    private static final Logger LOG = LoggerFactory.getLogger(Console.class);
    static final String ACTION_HEADER = "X-Ramjet-Console";
    /** Sent with every answer of the console's routes. */
    static final Map<String, String> SECURITY_HEADERS = Map.of(
            "Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
                    + " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
                    + " frame-ancestors 'none'",
            "X-Frame-Options", "DENY",
            "X-Content-Type-Options", "nosniff",
            "Referrer-Policy", "no-referrer");

    private final ConsoleGate gate;
    private final StaticFiles files = new StaticFiles();
    private final Map<String, Function<ApiCall, Object>> reads;
    private final Map<String, Function<ApiCall, Object>> actions;

    public Console(ConsoleGate gate, Listings listings, RateHistory history, MessagePages pages, Actions actions) {
        this.gate = gate;
        this.reads = Map.of(
                "/api/destinations", listings::destinations,
                "/api/subscriptions", listings::subscriptions,
                "/api/consumers", listings::consumers,
                "/api/connections", listings::connections,
                "/api/producers", listings::producers,
                "/api/cluster", listings::cluster,
                "/api/broker", listings::broker,
                "/api/history", history::history,
                "/api/browse", pages::page);
        this.actions = Map.of(
                "/api/purge", actions::purge,
                "/api/move", actions::move,
                "/api/create", actions::create,
                "/api/delete", actions::delete);
    }

    /** @param mount creates a context (a path prefix and its handler) on the HTTP server */
    public void mountOn(BiConsumer<String, HttpHandler> mount) {
        mount.accept("/", secured(this::root));
        mount.accept(StaticFiles.PREFIX, secured(gated(files::serve)));
        mount.accept("/api/", secured(gated(this::api)));
    }

    private static HttpHandler secured(HttpHandler handler) {
        return exchange -> {
            SECURITY_HEADERS.forEach(exchange.getResponseHeaders()::set);
            handler.handle(exchange);
        };
    }

    private void root(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (!path.equals("/") && !StaticFiles.PREFIX.equals(path + "/")) {
                ApiCall.error(exchange, 404, "no such page: " + exchange.getRequestURI().getPath());
                return;
            }
            exchange.getResponseHeaders().set("Location", StaticFiles.PREFIX);
            exchange.sendResponseHeaders(302, -1);
        }
    }

    private HttpHandler gated(HttpHandler handler) {
        return exchange -> {
            try (exchange) {
                if (gate.admit(exchange)) {
                    handler.handle(exchange);
                }
            }
        };
    }

    private void api(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        Function<ApiCall, Object> route = "GET".equals(method) ? reads.get(path)
                : "POST".equals(method) ? actions.get(path) : null;
        if (route == null) {
            boolean known = reads.containsKey(path) || actions.containsKey(path);
            ApiCall.error(exchange, known ? 405 : 404, (known ? method + " not allowed on " : "no such call: ") + path);
            return;
        }
        if ("POST".equals(method) && exchange.getRequestHeaders().getFirst(ACTION_HEADER) == null) {
            ApiCall.error(exchange, 400, "an action needs the header " + ACTION_HEADER);
            return;
        }
        try {
            ApiCall.answer(exchange, route.apply(new ApiCall(exchange)));
        } catch (BrokerException | CompletionException e) {
            BrokerException refusal = e instanceof BrokerException b ? b
                    : e.getCause() instanceof BrokerException b ? b : null;
            if (refusal == null) {
                fail(exchange, path, e);
            } else {
                ApiCall.error(exchange, ApiCall.status(refusal.refusal()), refusal.getMessage());
            }
        } catch (RuntimeException e) {
            fail(exchange, path, e);
        }
    }

    private static void fail(HttpExchange exchange, String path, RuntimeException e) throws IOException {
        LOG.warn("console: {} failed", path, e);
        ApiCall.error(exchange, 500, String.valueOf(e.getMessage()));
    }
}
