package io.ramjet.cli;

import io.ramjet.server.broker.security.PasswordHash;
import io.ramjet.server.embedded.EmbeddedBroker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Against a broker that refuses anonymous connections, the CLI works as a user, and only so. */
class AuthenticatedCliTest {

    @Test
    void commandsRunAsAUserAndAreRefusedWithout(@TempDir Path dir) throws Exception {
        Path users = dir.resolve("users.properties");
        Files.writeString(users, "alice = " + PasswordHash.of("wonderland".toCharArray()).encoded() + "\n");
        try (EmbeddedBroker broker = EmbeddedBroker.start(c -> c.withSecurity(users, false))) {
            String url = "ramjet://" + broker.nameServerAddress();
            assertEquals(0, run("producer", "-d", "orders", "-n", "2", "--url", url, "--user", "alice",
                    "--password", "wonderland"));
            StringWriter out = new StringWriter();
            assertEquals(0, RamjetAdmin.run(new PrintWriter(out), new PrintWriter(new StringWriter()), "queue",
                    "stat", "--url", url, "--user", "alice", "--password", "wonderland"));
            assertTrue(out.toString().contains("orders"), out.toString());

            assertEquals(1, run("queue", "stat", "--url", url));
            assertEquals(1, run("queue", "stat", "--url", url, "--user", "alice", "--password", "wrong"));
        }
    }

    private static int run(String... args) {
        return RamjetAdmin.run(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), args);
    }
}
