package io.ramjet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ramjet.server.embedded.EmbeddedBroker;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code check} run as a process, as a script or a probe runs it: its exit code and its JSON. */
class CheckCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aHealthyDeploymentExitsZero() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start()) {
            AdminProcess.Run run = AdminProcess.run("check", "--url", "ramjet://" + broker.nameServerAddress(),
                    "--json");
            assertEquals(0, run.exit(), run.toString());
            JsonNode results = JSON.readTree(run.out());
            assertEquals(List.of("nameserver", "brokers", "disk broker-a", "round trip"),
                    results.findValuesAsText("check"));
            results.forEach(r -> assertTrue(r.get("ok").asBoolean(), r.toString()));
        }
    }

    @Test
    void anUnreachableNameServerExitsOne() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0)) {
            port = closed.getLocalPort();
        }
        AdminProcess.Run run = AdminProcess.run("check", "--url", "ramjet://127.0.0.1:" + port, "--json", "--timeout",
                "1000");
        assertEquals(1, run.exit(), run.toString());
        JsonNode nameServer = JSON.readTree(run.out()).get(0);
        assertEquals("nameserver", nameServer.get("check").asText());
        assertFalse(nameServer.get("ok").asBoolean());
    }

    @Test
    void aDiskPastItsLimitFailsTheCheck() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(c -> c.withDiskUseLimit(0.0001))) {
            StringWriter out = new StringWriter(), err = new StringWriter();
            int exit = RamjetAdmin.run(new PrintWriter(out), new PrintWriter(err), "check", "--url",
                    "ramjet://" + broker.nameServerAddress(), "--json", "--no-round-trip");
            assertEquals(1, exit, out + " " + err);
            JsonNode disk = JSON.readTree(out.toString()).get(2);
            assertEquals("disk broker-a", disk.get("check").asText());
            assertFalse(disk.get("ok").asBoolean());
        }
    }
}
