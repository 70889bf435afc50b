package io.ramjet.server.broker.console;

import com.sun.net.httpserver.HttpExchange;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * One call of the console's JSON API: its query parameters (a POST's too: the actions take
 * theirs in the query string, so no body is parsed), and how answers and errors are written.
 * A parameter that is missing or not of its form is refused as {@link Refusal#BAD_REQUEST}.
 */
final class ApiCall {

    private static final String JSON = "application/json; charset=utf-8";

    private final Map<String, String> params;

    ApiCall(HttpExchange exchange) {
        this.params = parse(exchange.getRequestURI().getRawQuery());
    }

    /** The parameter, or null when absent or empty. */
    String param(String name) {
        String value = params.get(name);
        return value == null || value.isEmpty() ? null : value;
    }

    String required(String name) {
        String value = param(name);
        if (value == null) {
            throw new BrokerException(Refusal.BAD_REQUEST, "parameter '" + name + "' is required");
        }
        return value;
    }

    /** The parameter as a number in [min, max], or {@code otherwise} when absent. */
    long number(String name, long otherwise, long min, long max) {
        String value = param(name);
        if (value == null) {
            return otherwise;
        }
        try {
            long n = Long.parseLong(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below with the accepted range
        }
        throw new BrokerException(Refusal.BAD_REQUEST, "parameter '" + name + "' must be a whole number in ["
                + min + ", " + max + "], not '" + value + "'");
    }

    boolean flag(String name) {
        return "true".equalsIgnoreCase(param(name));
    }

    static void answer(HttpExchange exchange, Object value) throws IOException {
        send(exchange, 200, Json.write(value));
    }

    static void error(HttpExchange exchange, int status, String message) throws IOException {
        send(exchange, status, Json.write(Map.of("error", message == null ? "" : message)));
    }

    /** The HTTP status of a refusal of the admin functions. */
    static int status(Refusal refusal) {
        return switch (refusal) {
            case NOT_FOUND, UNKNOWN_DESTINATION -> 404;
            case NOT_AUTHENTICATED -> 401;
            case NOT_AUTHORIZED -> 403;
            case DISK_FULL -> 507;
            case BAD_REQUEST -> 400;
            default -> 409;
        };
    }

    private static void send(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", JSON);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static Map<String, String> parse(String rawQuery) {
        Map<String, String> out = new HashMap<>();
        if (rawQuery == null) {
            return out;
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            out.put(URLDecoder.decode(name, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
        }
        return out;
    }
}
