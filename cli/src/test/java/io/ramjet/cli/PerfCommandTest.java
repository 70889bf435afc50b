package io.ramjet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ramjet.server.embedded.EmbeddedBroker;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code perf} run as a process against a real broker: its JSON report against what was asked. */
class PerfCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void countedPersistentRunReceivesEveryMessageOnceWithLatencies() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start()) {
            JsonNode report = perf(broker, "-n", "2000", "--size", "256", "--producers", "2", "--consumers", "2");
            assertEquals(2000, report.get("sent").asLong(), report.toString());
            assertEquals(2000, report.get("received").asLong(), report.toString());
            assertEquals(0, report.get("lost").asLong());
            assertEquals(0, report.get("duplicated").asLong());
            assertTrue(report.get("persistent").asBoolean());
            assertTrue(report.get("sendRate").asDouble() > 0 && report.get("receiveRate").asDouble() > 0,
                    report.toString());
            JsonNode latency = report.get("latencyMicros");
            assertTrue(latency.get("p50").asLong() > 0, latency.toString());
            assertTrue(latency.get("p50").asLong() <= latency.get("p99").asLong()
                    && latency.get("p99").asLong() <= latency.get("max").asLong(), latency.toString());
        }
    }

    @Test
    void transactedNonPersistentRunForADurationCountsWhatItSent() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start()) {
            JsonNode report = perf(broker, "--duration", "2", "--non-persistent", "--tx-batch", "10");
            assertTrue(report.get("sent").asLong() > 0, report.toString());
            assertTrue(report.get("sendSeconds").asDouble() >= 2, report.toString());
            assertEquals(report.get("sent").asLong(), report.get("received").asLong(), report.toString());
            assertEquals(0, report.get("lost").asLong());
            assertEquals(10, report.get("transactedBatch").asInt());
            assertFalse(report.get("persistent").asBoolean());
        }
    }

    private static JsonNode perf(EmbeddedBroker broker, String... options) throws Exception {
        String[] args = new String[options.length + 4];
        args[0] = "perf";
        System.arraycopy(options, 0, args, 1, options.length);
        args[options.length + 1] = "--url";
        args[options.length + 2] = "ramjet://" + broker.nameServerAddress();
        args[options.length + 3] = "--json";
        AdminProcess.Run run = AdminProcess.run(args);
        assertEquals(0, run.exit(), run.toString());
        return JSON.readTree(run.out());
    }
}
