package io.ramjet.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.model.record.MessageRecordView;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM that appends with sync flush, then checks what it acknowledged survived.
 * Killing it closes the pipe, so acknowledgements printed but not yet read are not checked.
 */
class CrashTest {

    private static final int RUNS = 3;

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedRecordSurvivesAKill() throws Exception {
        Path store = dir.resolve("store");
        Map<Long, Long> acked = new HashMap<>();
        Random random = new Random();
        for (int run = 0; run < RUNS; run++) {
            int killAfter = 200 + random.nextInt(1_500);
            runAndKill(store, run * 1_000_000L, killAfter, acked);
            assertTrue(acked.size() >= (run + 1) * 200L);
            verify(store, acked);
        }
    }

    private void runAndKill(Path store, long firstSeq, int killAfter, Map<Long, Long> acked) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), CrashWriter.class.getName(),
                store.toString(), Long.toString(firstSeq));
        builder.redirectError(dir.resolve("child-" + firstSeq + ".err").toFile());
        Process child = builder.start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            int seen = 0;
            String line;
            while (seen < killAfter && (line = out.readLine()) != null) {
                record(line, acked);
                seen++;
            }
            child.destroyForcibly();
            assertTrue(seen >= killAfter, "child ended after " + seen + " acks, see " + dir);
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        }
    }

    private static void record(String line, Map<Long, Long> acked) {
        String[] parts = line.split(" ");
        if (parts.length == 3 && parts[0].equals("ack")) {
            acked.put(Long.parseLong(parts[1]), Long.parseLong(parts[2]));
        }
    }

    private static void verify(Path store, Map<Long, Long> acked) {
        try (MessageStore reopened = MessageStore.open(CrashWriter.config(store))) {
            assertFalse(reopened.recoveryReport().cleanShutdown());
            for (Map.Entry<Long, Long> ack : acked.entrySet()) {
                TestRecords.assertIntact(reopened.read(ack.getValue()), ack.getKey());
            }
            Set<Long> queued = new HashSet<>();
            for (int q = 0; q < CrashWriter.WRITERS; q++) {
                List<ConsumeQueueEntry> entries = reopened.readQueue(CrashWriter.DESTINATION, q, 0, Integer.MAX_VALUE);
                assertEquals(reopened.maxQueueOffset(CrashWriter.DESTINATION, q), entries.size());
                for (ConsumeQueueEntry e : entries) {
                    MessageRecordView view = reopened.read(e.physicalOffset());
                    long seq = TestRecords.seqOf(view);
                    TestRecords.assertIntact(view, seq);
                    assertEquals(e.queueOffset(), view.queueOffset());
                    assertEquals(q, view.queueId());
                    queued.add(seq);
                }
            }
            assertTrue(queued.containsAll(acked.keySet()), "every acknowledged record is queued");
            reopened.closeAbruptly();
        }
    }
}
