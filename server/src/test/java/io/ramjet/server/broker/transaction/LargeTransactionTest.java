package io.ramjet.server.broker.transaction;

import io.ramjet.model.XidCodec;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordType;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.transaction.TxClient.Received;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.RecordReadException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Transactions whose COMMIT or VOTE does not fit one record (a small maxRecordSize stands for a
 * million messages under the default): written as TX_PART records and the decision naming them,
 * applied whole live and when a killed broker replays its log. What a transaction consumed may
 * come ahead of its decision (TX_ACKS, for more than one frame holds): it counts only with the
 * decision, and only its owner may send it.
 */
class LargeTransactionTest {

    /** About 180 slots per part: the transactions below take several parts. */
    private static final int MAX_RECORD = 8 * 1024;
    private static final int SENT = 1_500;
    private static final int CONSUMED = 1_000;
    /** How many of those consumed a transaction sends ahead (TX_ACKS) of its prepare or end. */
    private static final int AHEAD = 700;
    private static final String XID = XidCodec.encode(7, new byte[] {5}, new byte[] {6});

    @TempDir
    Path dataDir;

    @Test
    void aCommitLargerThanOneRecordMakesEverySendVisibleAndAcknowledgesEverythingConsumed() throws Exception {
        Broker broker = TxBrokers.start(TxBrokers.config(dataDir, 15), MAX_RECORD);
        try (TxClient client = new TxClient(broker.address())) {
            List<Received> taken = consume(client);
            sendAll(client, 51);
            client.end(51, "", true, TxClient.acks("in", taken));

            assertTrue(partsIn(broker.store()) > 2, "the COMMIT was written as parts");
            assertOutcome(client, SENT, SENT - CONSUMED);
        } finally {
            broker.close();
        }
    }

    @Test
    void acknowledgementsSentAheadApplyOnlyWithTheDecisionAndAnyConnectionOfTheOwnerUserMaySendThem() throws Exception {
        Broker broker = TxBrokers.start(TxBrokers.config(dataDir, 15), MAX_RECORD);
        try {
            try (TxClient client = new TxClient(broker.address())) {
                List<Received> taken = consume(client);
                client.consumedAhead(53, TxClient.acks("in", taken.subList(0, AHEAD)));
                try (TxClient sameUser = new TxClient(broker.address())) {
                    // a transaction belongs to its user: another connection of it joins (another user is refused)
                    sameUser.consumedAhead(53, List.of());
                }
            }
            try (TxClient client = new TxClient(broker.address())) {
                client.subscribe("in", 11);
                int available = 0;
                List<Received> got;
                while (!(got = client.pull("in", 11, 500, 200)).isEmpty()) {
                    available += got.size();
                }
                assertEquals(SENT, available, "a transaction lost before its decision acknowledged nothing");
            }
            try (TxClient client = new TxClient(broker.address())) {
                List<Received> taken = consumeAgain(client);
                client.consumedAhead(54, TxClient.acks("in", taken.subList(0, AHEAD / 2)));
                client.consumedAhead(54, TxClient.acks("in", taken.subList(AHEAD / 2, AHEAD)));
                client.end(54, "", true, TxClient.acks("in", taken.subList(AHEAD, CONSUMED)));
                assertOutcome(client, 0, SENT - CONSUMED);
            }
        } finally {
            broker.close();
        }
    }

    @Test
    void aPreparedBranchLargerThanOneRecordSurvivesAKillAndCommitsWhole() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), TxBrokerProcess.class.getName(),
                dataDir.toString(), "3600000", Integer.toString(MAX_RECORD))
                .redirectError(ProcessBuilder.Redirect.appendTo(Path.of("target", "tx-broker-process.log").toFile()))
                .start();
        try {
            try (TxClient client = new TxClient("127.0.0.1:" + port(child))) {
                List<Received> taken = consume(client);
                sendAll(client, 52);
                client.consumedAhead(52, TxClient.acks("in", taken.subList(0, AHEAD)));
                client.prepare(52, XID, "", TxClient.acks("in", taken.subList(AHEAD, CONSUMED)));
                child.destroyForcibly();
                assertTrue(child.waitFor(20, TimeUnit.SECONDS));
            }
        } finally {
            child.destroyForcibly();
        }
        Broker restarted = TxBrokers.start(TxBrokers.config(dataDir, 15), MAX_RECORD);
        try (TxClient client = new TxClient(restarted.address())) {
            assertTrue(restarted.store().recoveryReport().recordsScanned() > SENT, "state came from the log");
            assertTrue(partsIn(restarted.store()) >= 2, "the VOTE was written as parts");
            assertEquals(List.of(XID), client.recover());
            client.subscribe("in", 8);
            assertEquals(SENT - CONSUMED, client.drain("in", 8, 100).size(),
                    "the branch still holds everything it consumed");
            client.end(0, XID, true, List.of());
            assertEquals(List.of(), client.recover());
            assertOutcome(client, SENT, 0);
        } finally {
            restarted.close();
        }
    }

    private static String port(Process child) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("PORT ")) {
            // skip log lines
        }
        assertTrue(line != null, "child broker printed its port");
        return line.substring(5).trim();
    }

    /** Stores {@link #SENT} messages in "in" and takes {@link #CONSUMED} of them, unacknowledged. */
    private static List<Received> consume(TxClient client) throws Exception {
        List<CompletableFuture<?>> sends = new ArrayList<>();
        for (int i = 0; i < SENT; i++) {
            sends.add(client.sendBehind("in", i % 2, "in-" + i, 0, 0));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        client.subscribe("in", 7);
        List<Received> taken = new ArrayList<>();
        while (taken.size() < CONSUMED) {
            taken.addAll(client.pull("in", 7, Math.min(500, CONSUMED - taken.size()), 1000));
        }
        return taken;
    }

    /** Takes {@link #CONSUMED} of the messages in "in", unacknowledged, through a new consumer. */
    private static List<Received> consumeAgain(TxClient client) throws Exception {
        client.subscribe("in", 12);
        List<Received> taken = new ArrayList<>();
        while (taken.size() < CONSUMED) {
            taken.addAll(client.pull("in", 12, Math.min(500, CONSUMED - taken.size()), 1000));
        }
        return taken;
    }

    /** Sends {@link #SENT} messages to "out" in transaction {@code id}. */
    private static void sendAll(TxClient client, long id) throws Exception {
        List<CompletableFuture<?>> sends = new ArrayList<>();
        for (int i = 0; i < SENT; i++) {
            sends.add(client.sendBehind("out", i % 2, "out-" + i, id, 0));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    }

    /** "out" holds exactly {@code out} distinct messages; "in" exactly {@code in} left unconsumed. */
    private static void assertOutcome(TxClient client, int out, int in) throws Exception {
        client.subscribe("out", 9);
        List<Received> received = client.drain("out", 9, 200);
        Set<String> distinct = new HashSet<>();
        received.forEach(r -> distinct.add(r.body()));
        assertEquals(out, received.size(), "messages of the transaction delivered");
        assertEquals(out, distinct.size(), "distinct messages of the transaction");
        client.subscribe("in", 10);
        assertEquals(in, client.drain("in", 10, 200).size(), "messages left unconsumed");
    }

    /** How many TX_PART records the log holds. */
    private static int partsIn(MessageStore store) {
        int parts = 0;
        long at = store.minPhysicalOffset();
        while (at < store.maxPhysicalOffset()) {
            MessageRecordView record;
            try {
                record = store.read(at);
            } catch (RecordReadException padding) {
                at = (at / (4 << 20) + 1) * (4 << 20);
                continue;
            }
            if (record.type() == RecordType.TX_PART) {
                parts++;
            }
            at += record.totalSize();
        }
        return parts;
    }
}
