package io.ramjet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.ramjet.server.broker.security.PasswordHash;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSRuntimeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code queue create}, {@code topic create} and {@code queue move --to} a new target, against
 * brokers that do not create destinations for clients: an operator with the admin right creates
 * them, anyone else is refused.
 */
class DestinationCreationTest {

    @Test
    void aCreatedQueueTakesSendsOnABrokerThatCreatesNothingForClients() {
        try (Deployment d = Deployment.start(c -> c.withAutoCreateDestinations(false))) {
            try (JMSContext context = d.factory.createContext()) {
                assertThrows(JMSRuntimeException.class, () -> context.createProducer()
                        .send(context.createQueue("invoices"), "before"));
            }
            JsonNode created = d.cli.json("queue", "create", "invoices", "--queues", "3");
            assertEquals("[\"" + d.broker.broker().config().brokerName() + "\"]", created.get("created").toString());
            assertEquals(3, d.cli.stat("invoices").get("queueCount").asInt());
            try (JMSContext context = d.factory.createContext()) {
                context.createProducer().send(context.createQueue("invoices"), "after");
            }
            assertEquals(1, d.cli.stat("invoices").get("enqueued").asLong());
        }
    }

    @Test
    void creatingAgainLeavesTheDestinationAsItWas() {
        try (Deployment d = Deployment.start(c -> c.withAutoCreateDestinations(false))) {
            d.cli.json("queue", "create", "invoices", "--queues", "2");
            JsonNode again = d.cli.json("queue", "create", "invoices", "--queues", "5");
            assertEquals(0, again.get("created").size());
            assertEquals(1, again.get("existing").size());
            assertEquals(2, d.cli.stat("invoices").get("queueCount").asInt());
        }
    }

    @Test
    void aCreatedTopicDeliversToItsSubscribers() {
        try (Deployment d = Deployment.start(c -> c.withAutoCreateDestinations(false))) {
            d.cli.json("topic", "create", "prices");
            assertEquals("TOPIC", d.cli.stat("prices").get("kind").asText());
            try (JMSContext context = d.factory.createContext()) {
                var consumer = context.createConsumer(context.createTopic("prices"));
                context.createProducer().send(context.createTopic("prices"), "1.25");
                assertEquals("1.25", consumer.receiveBody(String.class, 5_000));
            }
        }
    }

    @Test
    void aNameNoClientMayUseIsRefused() {
        try (Deployment d = Deployment.start(c -> c.withAutoCreateDestinations(false))) {
            assertEquals(1, d.cli.run("queue", "create", ""));
            assertEquals(1, d.cli.run("queue", "create", "invoices", "--broker", "nosuch"));
        }
    }

    @Test
    void onlyAUserWithTheAdminRightMayCreate(@TempDir Path dir) throws Exception {
        Path users = Files.writeString(dir.resolve("users.properties"),
                "ops = " + PasswordHash.of("ops-secret".toCharArray()).encoded() + "\n"
                        + "eve = " + PasswordHash.of("eve-secret".toCharArray()).encoded() + "\n");
        Path roles = Files.writeString(dir.resolve("roles.properties"), "admins = ops\nclients = eve\n");
        Path permissions = Files.writeString(dir.resolve("permissions.properties"),
                "admin # = admins\nsend # = admins, clients\nconsume # = admins, clients\n"
                        + "createDestination # = admins, clients\n");
        try (EmbeddedBroker broker = EmbeddedBroker.start(c -> c.withQueuesPerDestination(1)
                .withAutoCreateDestinations(false).withSecurity(users, false).toBuilder().rolesFile(roles)
                .permissionsFile(permissions).build())) {
            String url = "ramjet://" + broker.nameServerAddress();
            StringWriter err = new StringWriter();
            int refused = RamjetAdmin.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "queue",
                    "create", "invoices", "--url", url, "--user", "eve", "--password", "eve-secret");
            assertEquals(1, refused, err.toString());
            assertTrue(err.toString().contains("may not admin"), err.toString());
            String[] asOps = {"--url", url, "--user", "ops", "--password", "ops-secret"};
            assertEquals(1, run(err, "queue", "stat", "--name", "invoices", asOps), "eve created nothing");

            assertEquals(0, RamjetAdmin.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "queue",
                    "create", "invoices", "--url", url, "--user", "ops", "--password", "ops-secret"), err.toString());
            assertEquals(0, run(err, "queue", "stat", "--name", "invoices", asOps), err.toString());
        }
    }

    private static int run(StringWriter err, String command, String subcommand, String option, String value,
                           String... login) {
        String[] args = new String[4 + login.length];
        args[0] = command;
        args[1] = subcommand;
        args[2] = option;
        args[3] = value;
        System.arraycopy(login, 0, args, 4, login.length);
        return RamjetAdmin.run(new PrintWriter(new StringWriter()), new PrintWriter(err), args);
    }

    @Test
    void moveToANewNameCreatesItsTargetWhereTheBrokerCreatesDestinations() {
        try (Deployment d = Deployment.start(c -> c)) {
            try (JMSContext context = d.factory.createContext()) {
                for (int i = 0; i < 3; i++) {
                    context.createProducer().send(context.createQueue("parked"), "m" + i);
                }
            }
            assertNull(d.cli.stat("parked.retry"));
            assertEquals(3, d.cli.json("queue", "move", "--from", "parked", "--to", "parked.retry").get("moved")
                    .asLong());
            JsonNode target = d.cli.stat("parked.retry");
            assertNotNull(target);
            assertEquals(3, target.get("ready").asLong());
        }
    }

    @Test
    void moveToANewNameIsRefusedWhereTheBrokerCreatesNothing() {
        try (Deployment d = Deployment.start(c -> c.withAutoCreateDestinations(false))) {
            d.cli.json("queue", "create", "parked");
            try (JMSContext context = d.factory.createContext()) {
                context.createProducer().send(context.createQueue("parked"), "m");
            }
            assertEquals(1, d.cli.run("queue", "move", "--from", "parked", "--to", "parked.retry"));
            assertEquals(1, d.cli.stat("parked").get("ready").asLong());
        }
    }
}
