package io.ramjet.server.broker.transaction;

import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.transaction.TxClient.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Retention keeps the CommitLog segments that hold half records still needed. */
class TransactionRetentionTest {

    private static final String BIG = "x".repeat(200_000);

    @TempDir
    Path dataDir;

    private Broker broker;
    private TxClient client;

    @BeforeEach
    void start() throws Exception {
        broker = TxBrokers.start(TxBrokers.config(dataDir, 15)
                .withTransactionChecks(java.time.Duration.ofHours(1), TxBrokers.CHECK_INTERVAL, 15));
        client = new TxClient(broker.address());
    }

    @AfterEach
    void stop() {
        client.close();
        broker.close();
    }

    private void retain() {
        broker.store().checkpoint();
        broker.runRetention();
    }

    private List<Received> take(String queue, long consumer, int count) throws Exception {
        List<Received> all = new ArrayList<>();
        while (all.size() < count) {
            List<Received> got = client.pull(queue, consumer, count - all.size(), 1000);
            assertTrue(!got.isEmpty(), "more messages");
            all.addAll(got);
        }
        return all;
    }

    @Test
    void theSegmentOfAnOpenTransactionsHalfStays() throws Exception {
        client.send("t", 0, "half", 61);
        for (int i = 0; i < 60; i++) {
            client.send("bulk", 0, i + BIG, 0);
        }
        int segments = broker.store().segmentCount();
        assertTrue(segments >= 3, "several segments: " + segments);
        client.subscribe("bulk", 1);
        client.ack("bulk", take("bulk", 1, 60));
        retain();
        assertEquals(segments, broker.store().segmentCount(), "the half's segment and those after it stay");

        client.commit(61);
        client.subscribe("t", 2);
        List<Received> half = client.drain("t", 2, 100);
        assertEquals(List.of("half"), half.stream().map(Received::body).toList());
        retain();
        assertTrue(broker.store().segmentCount() < segments, "nothing needs them once the half is consumed");
    }

    @Test
    void aCommittedHalfAboveTheLowWaterMarkKeepsItsSegment() throws Exception {
        client.send("q", 0, "half", 62);
        for (int i = 0; i < 59; i++) {
            client.send("q", 0, i + BIG, 0);
        }
        client.commit(62);
        client.send("q", 0, "last", 0);
        int segments = broker.store().segmentCount();
        assertTrue(segments >= 3, "several segments: " + segments);

        client.subscribe("q", 1);
        List<Received> early = take("q", 1, 58);
        client.ack("q", early);
        retain();
        // the low-water entry is the 59th big message, late in the log; the half above it lies in the first segment
        List<Received> rest = client.drain("q", 1, 100);
        assertEquals(List.of("58" + BIG, "half", "last"), rest.stream().map(Received::body).toList());
    }
}
