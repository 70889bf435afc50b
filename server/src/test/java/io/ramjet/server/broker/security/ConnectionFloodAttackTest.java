package io.ramjet.server.broker.security;

import io.ramjet.server.broker.Broker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Floods before and after login: a large frame before authenticating, more connections (in all,
 * unauthenticated, or from one address) than the broker holds, and users holding many large
 * frames half sent to take the broker's memory. Each is refused by closing the connection, and
 * logged once per address, not once per refusal; a legitimate large send still goes through.
 */
class ConnectionFloodAttackTest {

    @TempDir
    Path dir;

    @Test
    void aLargeFrameBeforeLoginClosesTheConnection() throws Exception {
        try (Broker broker = new SecuredDeployment(dir).start();
             RawTlsConnection stranger = new RawTlsConnection(broker.port())) {
            stranger.sendPartialFrame(1 << 20, 128 * 1024);
            assertTrue(stranger.closedByTheBroker(), "a 1 MiB frame before login");
        }
    }

    @Test
    void connectionsPastTheLimitsAreClosedAsTheyOpen() throws Exception {
        SecuredDeployment deployment = new SecuredDeployment(dir, "maxUnauthenticatedConnections=4",
                "maxConnectionsPerAddress=6");
        List<RawTlsConnection> open = new ArrayList<>();
        try (Broker broker = deployment.start()) {
            for (int i = 0; i < 4; i++) {
                open.add(new RawTlsConnection(broker.port()));
                assertTrue(open.get(i).stillOpen(), "unauthenticated connection " + (i + 1));
            }
            try (RawTlsConnection fifth = new RawTlsConnection(broker.port())) {
                assertTrue(fifth.closedByTheBroker(), "a fifth unauthenticated connection");
            }
            open.get(0).authenticate("alice");
            open.get(1).authenticate("alice");
            for (int i = 4; i < 6; i++) {
                open.add(new RawTlsConnection(broker.port()));
                assertTrue(open.get(i).stillOpen(), "connection " + (i + 1) + " once two authenticated");
            }
            try (RawTlsConnection seventh = new RawTlsConnection(broker.port())) {
                assertTrue(seventh.closedByTheBroker(), "a seventh connection from the address");
            }
        } finally {
            for (RawTlsConnection c : open) {
                c.close();
            }
        }
    }

    @Test
    void connectionsPastTheBrokersLimitAreClosedAsTheyOpenWhoeverOpensThem() throws Exception {
        SecuredDeployment deployment = new SecuredDeployment(dir, "maxConnections=3");
        List<RawTlsConnection> open = new ArrayList<>();
        try (Broker broker = deployment.start()) {
            for (int i = 0; i < 3; i++) {
                open.add(new RawTlsConnection(broker.port()));
                open.get(i).authenticate("alice");
            }
            PrintStream err = System.err;
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
            try {
                for (int i = 0; i < 5; i++) {
                    try (RawTlsConnection past = new RawTlsConnection(broker.port())) {
                        assertTrue(past.closedByTheBroker(), "connection " + (4 + i) + " to a broker holding three");
                    }
                }
            } finally {
                System.setErr(err);
            }
            String logged = log.toString(StandardCharsets.UTF_8);
            err.print(logged);
            // the refusal, and not the TLS handshake each refused connection then fails
            assertEquals(1, logged.lines().filter(line -> line.contains("refused 127.0.0.1")
                    || line.contains("TLS handshake")).count(), "five refusals of one address logged once: " + logged);
            open.remove(0).close();
            await("a connection admitted once one of the three closed").atMost(Duration.ofSeconds(10)).until(() -> {
                try (RawTlsConnection again = new RawTlsConnection(broker.port())) {
                    return again.stillOpen();
                }
            });
        } finally {
            for (RawTlsConnection c : open) {
                c.close();
            }
        }
    }

    /**
     * Four users, each within its own share, together past what all half-sent frames may hold: the
     * frame that does not fit closes its connection, and fits again once memory comes back.
     */
    @Test
    void halfSentLargeFramesOfManyUsersTogetherCannotTakeMoreThanTheBrokersFrameMemory() throws Exception {
        SecuredDeployment deployment = new SecuredDeployment(dir, "frameMemoryLimit=48m", "frameMemoryPerUser=16m");
        List<RawTlsConnection> open = new ArrayList<>();
        try (Broker broker = deployment.start()) {
            for (String user : List.of("eve", "bob", "carol")) {
                RawTlsConnection connection = new RawTlsConnection(broker.port());
                open.add(connection);
                connection.authenticate(user);
                connection.sendPartialFrame((16 << 20) - 100, 1 << 20);
            }
            try (RawTlsConnection ops = new RawTlsConnection(broker.port())) {
                ops.authenticate("ops");
                ops.sendPartialFrame((16 << 20) - 100, 1 << 20);
                assertTrue(ops.closedByTheBroker(), "a fourth user's frame past the broker's frame memory");
            }
            for (RawTlsConnection connection : open) {
                assertTrue(connection.stillOpen(), "a frame within the broker's frame memory");
            }
            open.remove(0).close();
            await("a frame fits once eve's connection gave its memory back").atMost(Duration.ofSeconds(10)).until(() -> {
                try (RawTlsConnection ops = new RawTlsConnection(broker.port())) {
                    ops.authenticate("ops");
                    ops.sendPartialFrame((16 << 20) - 100, 1 << 20);
                    return ops.stillOpen();
                }
            });
        } finally {
            for (RawTlsConnection c : open) {
                c.close();
            }
        }
    }

    @Test
    void halfSentLargeFramesOfOneUserCannotTakeTheMemoryOthersNeed() throws Exception {
        SecuredDeployment deployment = new SecuredDeployment(dir, "frameMemoryLimit=64m", "frameMemoryPerUser=16m");
        List<RawTlsConnection> eves = new ArrayList<>();
        try (Broker broker = deployment.start()) {
            for (int i = 0; i < 6; i++) {
                RawTlsConnection eve = new RawTlsConnection(broker.port());
                eves.add(eve);
                eve.authenticate("eve");
                eve.sendPartialFrame((16 << 20) - 100, 1 << 20);
            }
            long closed = eves.stream().filter(RawTlsConnection::closedByTheBroker).count();
            assertEquals(5, closed, "eve's half-sent frames past her share of the frame memory");
            try (AttackClient alice = new AttackClient(deployment, broker.address(), "alice")) {
                alice.send("orders.new", "x".repeat(3 << 20), 0); // under maxRecordSize, over the small frames
            }
        } finally {
            for (RawTlsConnection c : eves) {
                c.close();
            }
        }
    }
}
