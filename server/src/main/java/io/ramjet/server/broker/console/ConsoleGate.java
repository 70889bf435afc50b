package io.ramjet.server.broker.console;

import com.sun.net.httpserver.HttpExchange;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.security.Authorizer;
import io.ramjet.server.broker.security.Identity;
import io.ramjet.server.broker.security.Login;
import io.ramjet.server.broker.security.Operation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Who may use the console. Open when the broker has no security (no users file, no JAAS
 * entry); otherwise every request needs HTTP Basic credentials that the broker's own
 * {@link Login} accepts (401 with a {@code WWW-Authenticate} challenge when missing or not
 * accepted) and the {@code admin} permission (403 when the user lacks it), as the operator's
 * commands do. Anonymous access, even where the broker admits anonymous connections, is not
 * offered: the console's actions change the broker.
 *
 * <p>A login hashes the password slowly and the page asks every two seconds, so an accepted
 * login is remembered for {@link #REMEMBER_MILLIS} under a digest of its header (never the
 * password itself); a change of the users or roles file reaches the console within that time.
 * Failed logins are throttled per remote address ({@link LoginThrottle}): a blocked address gets
 * 429 with {@code Retry-After} and no login is tried for it. Called on the console's one HTTP
 * thread (the scrape endpoint's, whose {@code /metrics} it may guard too); the cache is guarded
 * by the instance's lock.
 */
public final class ConsoleGate {

    private static final Logger LOG = LoggerFactory.getLogger(ConsoleGate.class);
    private static final String CHALLENGE = "Basic realm=\"Ramjet console\", charset=\"UTF-8\"";
    private static final long REMEMBER_MILLIS = 30_000;
    private static final int REMEMBERED = 64;

    private record Remembered(Identity identity, long until) {
    }

    private final Login login;
    private final Authorizer authorizer;
    private final LoginThrottle throttle = new LoginThrottle(() -> System.nanoTime() / 1_000_000);
    private final Map<String, Remembered> remembered = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Remembered> eldest) {
            return size() > REMEMBERED;
        }
    };

    private ConsoleGate(Login login, Authorizer authorizer) {
        this.login = login;
        this.authorizer = authorizer;
    }

    /** A broker without security: every request is admitted. */
    public static ConsoleGate open() {
        return new ConsoleGate(null, null);
    }

    public static ConsoleGate secured(Login login, Authorizer authorizer) {
        return new ConsoleGate(login, authorizer);
    }

    /** Whether the request may go on; when not, its answer (401, 403 or 429) has been sent. */
    public boolean admit(HttpExchange exchange) throws IOException {
        if (login == null) {
            return true;
        }
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        Optional<Identity> identity = remembered(authorization);
        if (identity.isEmpty() && authorization != null) {
            String address = exchange.getRemoteAddress().getAddress().getHostAddress();
            long waitMillis = throttle.waitMillis(address);
            if (waitMillis > 0) {
                long seconds = (waitMillis + 999) / 1000;
                exchange.getResponseHeaders().set("Retry-After", Long.toString(seconds));
                ApiCall.error(exchange, 429, "too many failed logins from " + address + ": retry in " + seconds
                        + " s");
                return false;
            }
            identity = logIn(authorization);
            if (identity.isPresent()) {
                throttle.succeeded(address);
            } else {
                throttle.failed(address);
            }
        }
        if (identity.isEmpty()) {
            exchange.getResponseHeaders().set("WWW-Authenticate", CHALLENGE);
            ApiCall.error(exchange, 401, "credentials required");
            return false;
        }
        try {
            authorizer.checkBroker(identity.get(), Operation.ADMIN);
            return true;
        } catch (BrokerException e) {
            ApiCall.error(exchange, 403, e.getMessage());
            return false;
        }
    }

    /** The identity of an accepted login still remembered for this header. */
    private synchronized Optional<Identity> remembered(String authorization) {
        if (authorization == null) {
            return Optional.empty();
        }
        Remembered known = remembered.get(digest(authorization));
        return known != null && known.until() > System.currentTimeMillis() ? Optional.of(known.identity())
                : Optional.empty();
    }

    /** Tries the header's Basic credentials against the broker's login, remembering an accepted one. */
    private synchronized Optional<Identity> logIn(String authorization) {
        if (!authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Optional.empty();
        }
        String key = digest(authorization);
        String credentials;
        try {
            credentials = new String(Base64.getDecoder().decode(authorization.substring(6).trim()),
                    StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        int colon = credentials.indexOf(':');
        if (colon < 0) {
            return Optional.empty();
        }
        String user = credentials.substring(0, colon);
        Optional<Identity> identity = login.login(user, credentials.substring(colon + 1).toCharArray(), null);
        if (identity.isPresent()) {
            remembered.put(key, new Remembered(identity.get(), System.currentTimeMillis() + REMEMBER_MILLIS));
        } else {
            remembered.remove(key);
            LOG.warn("console: authentication of user '{}' failed", user);
        }
        return identity;
    }

    private static String digest(String authorization) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(authorization.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is in every JDK", e);
        }
    }
}
