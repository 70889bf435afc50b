package io.ramjet.server.broker.console;

import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import io.ramjet.server.broker.security.PasswordHash;
import io.ramjet.server.embedded.EmbeddedBroker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console's HTTP port on a broker with security on: failed logins are throttled per
 * address without holding the HTTP thread, every answer carries the security headers, and
 * {@code /metrics} is open or behind the console's login as {@code metricsRequireLogin} says.
 */
class ConsoleGuardTest {

    private static final String ADMIN = "ops", ADMIN_PASSWORD = "s3cret-ops";
    private static final String USER = "app", USER_PASSWORD = "s3cret-app";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    private EmbeddedBroker secured(UnaryOperator<BrokerConfigBuilder> tuning) throws Exception {
        Path users = Files.writeString(dir.resolve("users.properties"),
                ADMIN + " = " + PasswordHash.of(ADMIN_PASSWORD.toCharArray()).encoded() + "\n"
                        + USER + " = " + PasswordHash.of(USER_PASSWORD.toCharArray()).encoded() + "\n");
        Path roles = Files.writeString(dir.resolve("roles.properties"), "admins = " + ADMIN + "\napps = " + USER + "\n");
        Path permissions = Files.writeString(dir.resolve("permissions.properties"),
                "admin # = admins\nsend # = apps, admins\nconsume # = apps\n");
        return EmbeddedBroker.start(c -> tuning.apply(c.toBuilder().metricsPort(0).usersFile(users).rolesFile(roles)
                .permissionsFile(permissions)).build());
    }

    @Test
    void failedLoginsFromOneAddressAreRefusedWithoutATryAfterAFew() throws Exception {
        try (EmbeddedBroker broker = secured(b -> b)) {
            int unauthorized = 0, throttled = 0;
            for (int i = 0; i < 20; i++) {
                HttpResponse<String> response = get(broker, "/api/destinations", ADMIN, "guess-" + i);
                if (response.statusCode() == 401) {
                    unauthorized++;
                    continue;
                }
                assertEquals(429, response.statusCode(), response.body());
                assertTrue(Long.parseLong(response.headers().firstValue("Retry-After").orElse("0")) >= 1,
                        response.headers().map().toString());
                if (throttled++ == 0) {
                    assertEquals(429, get(broker, "/api/destinations", ADMIN, ADMIN_PASSWORD).statusCode(),
                            "while blocked even the right password is not tried");
                }
            }
            // a block of a second may end during the loop on a slow machine, letting one more guess through
            assertTrue(unauthorized > LoginThrottle.FREE_FAILURES && unauthorized <= LoginThrottle.FREE_FAILURES + 3,
                    unauthorized + " guesses tried");
            assertEquals(20 - unauthorized, throttled);
            assertEquals(200, get(broker, "/metrics", null, null).statusCode(), "the scrape is served meanwhile");
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).until(() ->
                    get(broker, "/api/destinations", ADMIN, ADMIN_PASSWORD).statusCode() == 200);
        }
    }

    @Test
    void everyAnswerCarriesTheSecurityHeaders() throws Exception {
        try (EmbeddedBroker broker = secured(b -> b)) {
            for (HttpResponse<String> response : List.of(get(broker, "/", null, null),
                    get(broker, "/console/", null, null), get(broker, "/console/", ADMIN, ADMIN_PASSWORD),
                    get(broker, "/console/console.js", ADMIN, ADMIN_PASSWORD),
                    get(broker, "/api/broker", ADMIN, ADMIN_PASSWORD), get(broker, "/api/broker", USER, USER_PASSWORD))) {
                for (Map.Entry<String, String> header : Console.SECURITY_HEADERS.entrySet()) {
                    assertEquals(header.getValue(), response.headers().firstValue(header.getKey()).orElse(null),
                            response.uri() + " " + response.statusCode() + ": " + header.getKey());
                }
            }
            String policy = Console.SECURITY_HEADERS.get("Content-Security-Policy");
            assertTrue(policy.contains("frame-ancestors 'none'") && policy.contains("script-src 'self'"), policy);
        }
    }

    @Test
    void metricsAnswerAnyoneByDefault() throws Exception {
        try (EmbeddedBroker broker = secured(b -> b)) {
            HttpResponse<String> scrape = get(broker, "/metrics", null, null);
            assertEquals(200, scrape.statusCode());
            assertTrue(scrape.body().contains("ramjet_destinations"), scrape.body());
        }
    }

    @Test
    void metricsAskForTheConsolesLoginWhenRequired() throws Exception {
        try (EmbeddedBroker broker = secured(b -> b.metricsRequireLogin(true))) {
            HttpResponse<String> anonymous = get(broker, "/metrics", null, null);
            assertEquals(401, anonymous.statusCode());
            assertTrue(anonymous.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic"));
            assertEquals(401, get(broker, "/metrics", ADMIN, "wrong").statusCode());
            assertEquals(403, get(broker, "/metrics", USER, USER_PASSWORD).statusCode());
            HttpResponse<String> scrape = get(broker, "/metrics", ADMIN, ADMIN_PASSWORD);
            assertEquals(200, scrape.statusCode());
            assertTrue(scrape.body().contains("ramjet_destinations"), scrape.body());
        }
    }

    @Test
    void requiringALoginWithoutSecurityIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () ->
                BrokerConfig.defaults(dir).toBuilder().metricsPort(0).metricsRequireLogin(true).build());
        assertTrue(refused.getMessage().contains("metricsRequireLogin"), refused.getMessage());
    }

    private static HttpResponse<String> get(EmbeddedBroker broker, String path, String user, String password)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + broker.broker().metricsPort() + path)).timeout(Duration.ofSeconds(10));
        if (user != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    (user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        return HTTP.send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
