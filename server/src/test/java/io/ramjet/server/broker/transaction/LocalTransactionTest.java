package io.ramjet.server.broker.transaction;

import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.SendResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.transaction.TxClient.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One broker, one client: TX_END (and TX_COMMIT_COUNTED) commit and rollback of sends and receives. */
class LocalTransactionTest {

    @TempDir
    Path dataDir;

    private Broker broker;
    private TxClient client;

    @BeforeEach
    void start() throws Exception {
        broker = TxBrokers.start(dataDir);
        client = new TxClient(broker.address());
    }

    @AfterEach
    void stop() {
        client.close();
        broker.close();
    }

    private static List<String> bodies(List<Received> messages) {
        return messages.stream().map(Received::body).toList();
    }

    @Test
    void halfRecordsAreInvisibleUntilCommit() throws Exception {
        SendResponse response = client.send("orders", 0, "h1", 7);
        assertEquals(-1, response.queueOffset());
        client.send("orders", 0, "h2", 7);
        client.subscribe("orders", 1);
        assertEquals(List.of(), client.pull("orders", 1, 10, 100));

        client.commit(7);
        assertEquals(List.of("h1", "h2"), bodies(client.drain("orders", 1, 100)));
    }

    @Test
    void commitMakesHalvesVisibleInOrderAtConsecutiveOffsets() throws Exception {
        client.send("orders", 0, "plain0", 0);
        client.send("orders", 0, "h1", 8);
        client.send("orders", 0, "plain1", 0);
        client.send("orders", 0, "h2", 8);
        client.send("orders", 0, "h3", 8);
        client.commit(8);
        client.send("orders", 0, "plain2", 0);

        client.subscribe("orders", 1);
        List<Received> all = client.drain("orders", 1, 100);
        assertEquals(List.of("plain0", "plain1", "h1", "h2", "h3", "plain2"), bodies(all));
        for (int i = 0; i < all.size(); i++) {
            assertEquals(i, all.get(i).offset());
            assertEquals(1, all.get(i).deliveryCount());
        }
    }

    @Test
    void consumeAndProduceMovesAMessageExactlyOnce() throws Exception {
        client.send("in", 0, "job", 0);
        client.subscribe("in", 1);
        List<Received> taken = client.pull("in", 1, 1, 1000);
        assertEquals(List.of("job"), bodies(taken));

        client.send("out", 0, "job done", 9);
        client.end(9, "", true, TxClient.acks("in", taken));

        client.subscribe("out", 2);
        assertEquals(List.of("job done"), bodies(client.drain("out", 2, 100)));
        // closing the consumer cannot bring back what the commit acknowledged
        client.closeConsumer("in", 1);
        client.subscribe("in", 3);
        assertEquals(List.of(), client.pull("in", 3, 10, 100));
    }

    @Test
    void rollbackDropsHalvesAndRedeliversWhatWasConsumed() throws Exception {
        client.send("in", 0, "job", 0);
        client.subscribe("in", 1);
        List<Received> taken = client.pull("in", 1, 1, 1000);
        client.send("out", 0, "never", 10);

        client.end(10, "", false, TxClient.acks("in", taken));

        List<Received> again = client.pull("in", 1, 1, 1000);
        assertEquals(List.of("job"), bodies(again));
        assertEquals(2, again.get(0).deliveryCount());
        client.subscribe("out", 2);
        assertEquals(List.of(), client.pull("out", 2, 10, 100));
    }

    @Test
    void aRolledBackTransactionCannotCommitAndRepeatingADecisionSucceeds() throws Exception {
        client.send("orders", 0, "h", 11);
        client.end(11, "", false, List.of());
        client.end(11, "", false, List.of());
        RemotingCommandException refused = assertThrows(RemotingCommandException.class, () -> client.commit(11));
        assertEquals(ErrorStatus.TRANSACTION_ROLLED_BACK, refused.status());
        RemotingCommandException lateSend = assertThrows(RemotingCommandException.class,
                () -> client.send("orders", 0, "late", 11));
        assertEquals(ErrorStatus.TRANSACTION_ROLLED_BACK, lateSend.status());

        client.send("orders", 0, "c", 12);
        client.commit(12);
        client.commit(12);
        client.subscribe("orders", 1);
        assertEquals(List.of("c"), bodies(client.drain("orders", 1, 100)));
    }

    /** The delay is long enough that a loaded machine still pulls once before it is due. */
    @Test
    void aDelayedHalfWaitsForItsTimeAfterCommitAndAnExpiredOneIsDropped() throws Exception {
        long now = System.currentTimeMillis();
        long due = now + 2000;
        client.send("orders", 0, "delayed", 13, due, 0);
        client.send("orders", 0, "expired", 13, 0, now + 100);
        client.send("orders", 0, "now", 13);
        TxBrokers.await("the expiration", () -> System.currentTimeMillis() > now + 100);
        client.commit(13);
        client.subscribe("orders", 1);
        assertEquals(List.of("now"), bodies(client.pull("orders", 1, 10, 0)));
        List<Received> later = client.pull("orders", 1, 10, 5000);
        assertEquals(List.of("delayed"), bodies(later));
        assertTrue(System.currentTimeMillis() >= due);
    }

    /**
     * A transaction belongs to its user, not to one connection: another connection of the same
     * (here anonymous) user sends in it, and the owner's commit covers both. Another user is
     * refused (XaBranchAttackTest).
     */
    @Test
    void anotherConnectionOfTheOwnerUserJoinsALiveOwnersTransaction() throws Exception {
        client.send("orders", 0, "mine", 16);
        try (TxClient joined = new TxClient(broker.address())) {
            joined.send("orders", 0, "joined", 16);
            client.commit(16);
        }
        client.subscribe("orders", 1);
        assertEquals(List.of("mine", "joined"), bodies(client.drain("orders", 1, 100)));
    }

    @Test
    void aClosedConnectionRollsItsTransactionBackAtOnce() throws Exception {
        client.send("in", 0, "job", 0);
        try (TxClient doomed = new TxClient(broker.address())) {
            doomed.subscribe("in", 5);
            assertEquals(1, doomed.pull("in", 5, 1, 1000).size());
            doomed.send("out", 0, "never", 14);
        }
        client.subscribe("in", 1);
        List<Received> again = client.pull("in", 1, 1, 5000);
        assertEquals(List.of("job"), bodies(again));
        assertEquals(2, again.get(0).deliveryCount());
        TxBrokers.await("the rollback", () -> broker.transactionCount() == 0);
        RemotingCommandException refused = assertThrows(RemotingCommandException.class, () -> client.commit(14));
        assertEquals(ErrorStatus.TRANSACTION_ROLLED_BACK, refused.status());
        client.subscribe("out", 2);
        assertEquals(List.of(), client.pull("out", 2, 10, 100));
    }

    // TX_COMMIT_COUNTED: a commit sent right behind its sends, committing only what it counted

    @Test
    void aCommitSentBehindUnansweredSendsCommitsThemAll() throws Exception {
        // on an open connection, so that the frames are written in the order they are sent
        client.subscribe("orders", 1);
        List<CompletableFuture<Frame>> sends = new ArrayList<>();
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            sent.add("m" + i);
            sends.add(client.sendBehind("orders", 0, "m" + i, 21, 0));
        }
        client.commitCounted(21, 50);
        for (CompletableFuture<Frame> send : sends) {
            send.get(10, TimeUnit.SECONDS);
        }
        assertEquals(sent, bodies(client.drain("orders", 1, 100)));
    }

    @Test
    void aCountedCommitWhoseHalvesAreDispatchedIsForcedOnTheThreadThatRanIt() throws Exception {
        List<String> forcedOn = java.util.Collections.synchronizedList(new ArrayList<>());
        broker.store().flushStatistics().listen((nanos, waiters) -> {
            if (waiters > 0) {
                forcedOn.add(Thread.currentThread().getName());
            }
        });
        for (int i = 0; i < 5; i++) {
            client.send("orders", 0, "c" + i, 30 + i);
            broker.store().dispatchedTo(broker.store().maxPhysicalOffset()).get(10, TimeUnit.SECONDS);
            client.commitCounted(30 + i, 1);
        }
        assertEquals(5, forcedOn.size(), "one force per commit: " + forcedOn);
        assertTrue(forcedOn.stream().noneMatch(name -> name.contains("flush")),
                "no flush thread woken for them: " + forcedOn);
        client.subscribe("orders", 1);
        assertEquals(List.of("c0", "c1", "c2", "c3", "c4"), bodies(client.drain("orders", 1, 100)));
    }

    @Test
    void aCommitCountingAMessageTheBrokerDoesNotHoldRollsBack() throws Exception {
        client.send("orders", 0, "a", 22);
        client.send("orders", 0, "b", 22);
        RemotingCommandException refused = assertThrows(RemotingCommandException.class,
                () -> client.commitCounted(22, 3));
        assertEquals(ErrorStatus.TRANSACTION_ROLLED_BACK, refused.status());
        RemotingCommandException again = assertThrows(RemotingCommandException.class, () -> client.commit(22));
        assertEquals(ErrorStatus.TRANSACTION_ROLLED_BACK, again.status());
        RemotingCommandException lateSend = assertThrows(RemotingCommandException.class,
                () -> client.send("orders", 0, "c", 22));
        assertEquals(ErrorStatus.TRANSACTION_ROLLED_BACK, lateSend.status());

        client.subscribe("orders", 1);
        assertEquals(List.of(), client.pull("orders", 1, 10, 100));
    }

    @Test
    void aMessageExpiredOnArrivalIsCountedAndNeverDelivered() throws Exception {
        client.send("orders", 0, "expired", 23, 0, System.currentTimeMillis() - 1_000);
        client.send("orders", 0, "live", 23);
        client.commitCounted(23, 2);

        client.subscribe("orders", 1);
        assertEquals(List.of("live"), bodies(client.drain("orders", 1, 100)));
    }

    @Test
    void aRepeatedCountedCommitFindsTheFirstOnesDecision() throws Exception {
        client.send("orders", 0, "once", 24);
        client.commitCounted(24, 1);
        client.commitCounted(24, 1);

        client.subscribe("orders", 1);
        assertEquals(List.of("once"), bodies(client.drain("orders", 1, 100)));
    }
}
