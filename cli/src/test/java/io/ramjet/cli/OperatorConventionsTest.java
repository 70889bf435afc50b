package io.ramjet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every command shares: a name not found exits 1 (whichever command names it), every command prints JSON on request,
 * consumer ids are shown as positive numbers, and the version is the build's everywhere.
 */
class OperatorConventionsTest extends DeploymentTest {

    private static final String POM_VERSION = System.getProperty("ramjet.pom.version");

    @Test
    void aDestinationNotFoundExitsOneForStatAsForPurge() {
        assertEquals(1, cli.run("queue", "stat", "--name", "nosuch"));
        assertEquals(1, cli.run("queue", "purge", "nosuch"));
        assertEquals(1, cli.run("queue", "delete", "nosuch"));
    }

    @Test
    void everyCommandNamingSomethingAbsentExitsOne() {
        assertEquals(1, cli.run("queue", "delete", "nosuch", "--topic"));
        assertEquals(1, cli.run("queue", "move", "--from", "nosuch", "--to", "orders"));
        assertEquals(1, cli.run("queue", "extend", "nosuch", "--groups", deployment.broker.broker().config()
                .brokerName()));
        assertEquals(1, cli.run("topic", "extend", "nosuch", "--groups", "nosuch"));
        assertEquals(1, cli.run("subscription", "delete", "nosuch", "--client-id", "nosuch"));
        assertEquals(1, cli.run("subscription", "purge", "nosuch", "--client-id", "nosuch"));
        assertEquals(1, cli.run("tx", "commit", "nosuch"));
        assertEquals(1, cli.run("tx", "rollback", "nosuch"));
        assertEquals(1, cli.run("parked", "resolve", "--group", "nosuch", "--discard"));
    }

    @Test
    void everyCommandTakesJson() {
        List<String> without = new ArrayList<>();
        collectWithoutJson(new CommandLine(new RamjetAdmin()), without);
        assertEquals(List.of(), without);
    }

    private static void collectWithoutJson(CommandLine command, List<String> without) {
        if (command.getSubcommands().isEmpty()) {
            if (!command.getCommandName().equals("help") && command.getCommandSpec().findOption("--json") == null) {
                without.add(command.getCommandSpec().qualifiedName());
            }
            return;
        }
        command.getSubcommands().values().forEach(sub -> collectWithoutJson(sub, without));
    }

    @Test
    void consumerIdsArePositive() {
        try (JMSContext context = factory.createContext()) {
            List<JMSConsumer> consumers = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                consumers.add(context.createConsumer(context.createQueue("orders")));
            }
            JsonNode listed = cli.json("consumer", "list");
            assertEquals(20, listed.size(), listed.toString());
            for (JsonNode consumer : listed) {
                assertTrue(consumer.get("id").asLong() > 0, consumer.toString());
            }
        }
    }

    @Test
    void theVersionIsTheBuildsEverywhere() throws JMSException {
        assertNotNull(POM_VERSION, "the build passes ramjet.pom.version");
        StringWriter out = new StringWriter();
        assertEquals(0, RamjetAdmin.run(new PrintWriter(out), new PrintWriter(new StringWriter()), "-V"));
        assertEquals("Ramjet admin " + POM_VERSION, out.toString().strip());
        assertEquals(POM_VERSION, cli.json("broker").get(0).get("version").asText());
        try (JMSContext context = factory.createContext()) {
            assertEquals(POM_VERSION, context.getMetaData().getProviderVersion());
        }
    }
}
