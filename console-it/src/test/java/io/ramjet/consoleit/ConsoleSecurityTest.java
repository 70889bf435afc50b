package io.ramjet.consoleit;

import io.ramjet.server.broker.security.PasswordHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console of a broker with security on (users, roles and permissions files; anonymous
 * connections allowed, as the admin commands' own tests have it): no credentials or wrong ones
 * get 401 with a Basic challenge, a user without the {@code admin} permission 403, an
 * administrator the page (in Chromium) and the API; an action without the console's header is
 * refused even for an administrator.
 */
class ConsoleSecurityTest {

    private static final String ADMIN = "ops", ADMIN_PASSWORD = "s3cret-ops";
    private static final String USER = "app", USER_PASSWORD = "s3cret-app";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    static Path directory;
    private static ConsoleUnderTest console;

    @BeforeAll
    static void start() throws Exception {
        Path users = Files.writeString(directory.resolve("users.properties"),
                ADMIN + " = " + PasswordHash.of(ADMIN_PASSWORD.toCharArray()).encoded() + "\n"
                        + USER + " = " + PasswordHash.of(USER_PASSWORD.toCharArray()).encoded() + "\n");
        Path roles = Files.writeString(directory.resolve("roles.properties"), "admins = " + ADMIN + "\napps = " + USER
                + "\n");
        Path permissions = Files.writeString(directory.resolve("permissions.properties"),
                "admin # = admins\nsend # = apps, admins\nconsume # = apps\ncreateDestination # = *\n");
        Path profile = Files.createDirectories(directory.resolve("profile"));
        console = ConsoleUnderTest.start(c -> c.usersFile(users).rolesFile(roles).permissionsFile(permissions)
                .queues(List.of("secured.orders")), profile);
    }

    @AfterAll
    static void stop() {
        if (console != null) {
            console.close();
        }
    }

    @Test
    void withoutCredentialsThePageAndTheApiAnswer401WithABasicChallenge() throws Exception {
        for (String path : new String[] {"/console/", "/api/destinations"}) {
            HttpResponse<String> response = get(path, null, null);
            assertEquals(401, response.statusCode(), path);
            assertTrue(response.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic realm="),
                    response.headers().map().toString());
        }
    }

    @Test
    void aWrongPasswordAnswers401() throws Exception {
        assertEquals(401, get("/api/destinations", ADMIN, "not-the-password").statusCode());
    }

    @Test
    void aUserWithoutTheAdminPermissionGets403() throws Exception {
        HttpResponse<String> response = get("/console/", USER, USER_PASSWORD);
        assertEquals(403, response.statusCode());
        assertTrue(response.body().contains("may not admin"), response.body());
        assertEquals(403, post("/api/purge?destination=secured.orders", USER, USER_PASSWORD, true).statusCode());
    }

    @Test
    void aUserWithoutTheAdminPermissionCannotCreateOrDeleteDestinations() throws Exception {
        assertEquals(403, post("/api/create?kind=QUEUE&name=secured.app", USER, USER_PASSWORD, true).statusCode());
        assertEquals(403, post("/api/delete?kind=QUEUE&name=secured.orders", USER, USER_PASSWORD, true).statusCode());
        String listing = get("/api/destinations", ADMIN, ADMIN_PASSWORD).body();
        assertFalse(listing.contains("\"name\":\"secured.app\""), listing);
        assertTrue(listing.contains("\"name\":\"secured.orders\""), listing);
    }

    @Test
    void anAdministratorCreatesAndDeletesATopicOnlyWithTheConsoleHeader() throws Exception {
        String create = "/api/create?kind=TOPIC&name=secured.prices";
        assertEquals(400, post(create, ADMIN, ADMIN_PASSWORD, false).statusCode());
        HttpResponse<String> created = post(create, ADMIN, ADMIN_PASSWORD, true);
        assertEquals("{\"created\":true}", created.body());
        assertEquals("{\"created\":false}", post(create, ADMIN, ADMIN_PASSWORD, true).body());
        assertTrue(get("/api/destinations?destination=secured.prices", ADMIN, ADMIN_PASSWORD).body()
                .contains("\"kind\":\"TOPIC\""));
        String delete = "/api/delete?kind=TOPIC&name=secured.prices";
        assertEquals(400, post(delete, ADMIN, ADMIN_PASSWORD, false).statusCode());
        assertEquals("{\"deleted\":true}", post(delete, ADMIN, ADMIN_PASSWORD, true).body());
        assertEquals(404, post(delete, ADMIN, ADMIN_PASSWORD, true).statusCode());
        assertEquals(400, post("/api/create?kind=TABLE&name=x", ADMIN, ADMIN_PASSWORD, true).statusCode());
        assertEquals(400, post("/api/create?kind=QUEUE&name=TMP", ADMIN, ADMIN_PASSWORD, true).statusCode());
    }

    @Test
    void anAdministratorGetsTheApiAndActsOnlyWithTheConsoleHeader() throws Exception {
        HttpResponse<String> listing = get("/api/destinations", ADMIN, ADMIN_PASSWORD);
        assertEquals(200, listing.statusCode());
        assertTrue(listing.body().contains("\"name\":\"secured.orders\""), listing.body());
        assertEquals(400, post("/api/purge?destination=secured.orders", ADMIN, ADMIN_PASSWORD, false).statusCode());
        HttpResponse<String> purged = post("/api/purge?destination=secured.orders", ADMIN, ADMIN_PASSWORD, true);
        assertEquals(200, purged.statusCode());
        assertEquals("{\"purged\":0}", purged.body());
    }

    @Test
    void anAdministratorSeesThePageInTheBrowser() {
        console.browser.get(console.url("/console/")
                .replace("http://", "http://" + ADMIN + ":" + ADMIN_PASSWORD + "@"));
        Chromium.await(console.browser, ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("tr[data-destination='secured.orders'] td[data-field='ready']")));
    }

    private static HttpResponse<String> get(String path, String user, String password) throws Exception {
        return HTTP.send(request(path, user, password).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String path, String user, String password, boolean consoleHeader)
            throws Exception {
        HttpRequest.Builder request = request(path, user, password).POST(HttpRequest.BodyPublishers.noBody());
        if (consoleHeader) {
            request.header("X-Ramjet-Console", "true");
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(String path, String user, String password) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(console.url(path)))
                .timeout(Duration.ofSeconds(10));
        if (user != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    (user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        return request;
    }
}
