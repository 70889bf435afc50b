package io.ramjet.server.broker.transaction;

import io.ramjet.model.TxState;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.transaction.TxClient.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The broker asks the owning connection about transactions older than the check timeout; the
 * maximum of checks bounds a transaction whose owner is gone or silent, never one whose connected
 * owner answers that it is still open.
 */
class CheckBackTest {

    private static final int MAX_CHECKS = 3;
    /** The restarted broker's first check-back comes one interval after it starts. */
    private static final Duration FIRST_CHECK_AFTER_RESTART = Duration.ofSeconds(1);

    @TempDir
    Path dataDir;

    private Broker broker;
    private TxClient reader;

    @BeforeEach
    void start() throws Exception {
        broker = TxBrokers.start(TxBrokers.config(dataDir, MAX_CHECKS));
        reader = new TxClient(broker.address());
        reader.subscribe("orders", 1);
    }

    @AfterEach
    void stop() {
        reader.close();
        broker.close();
    }

    private List<String> visible() throws Exception {
        return reader.drain("orders", 1, 100).stream().map(Received::body).toList();
    }

    @Test
    void anOwnerAnsweringCommittedGetsItsTransactionCommitted() throws Exception {
        try (TxClient owner = new TxClient(broker.address(), id -> TxState.COMMITTED)) {
            owner.send("orders", 0, "h1", 21);
            owner.send("orders", 0, "h2", 21);
            assertEquals(List.of("h1", "h2"), reader.drain("orders", 1, 3000).stream().map(Received::body).toList());
            assertTrue(owner.checked.contains(21L));
            owner.commit(21);
        }
    }

    @Test
    void anOwnerAnsweringRolledBackGetsItsTransactionRolledBack() throws Exception {
        try (TxClient owner = new TxClient(broker.address(), id -> TxState.ROLLED_BACK)) {
            owner.send("orders", 0, "h", 22);
            TxBrokers.await("the check-back", () -> owner.checked.contains(22L) && broker.transactionCount() == 0);
            RemotingCommandException refused = assertThrows(RemotingCommandException.class, () -> owner.commit(22));
            assertEquals(ErrorStatus.TRANSACTION_ROLLED_BACK, refused.status());
            assertEquals(List.of(), visible());
        }
    }

    @Test
    void anOwnerAnsweringOpenKeepsItsTransactionPastTheMaximumOfChecksAndCommitsItWhole() throws Exception {
        List<String> sent = IntStream.range(0, 20).mapToObj(i -> "m" + i).toList();
        try (TxClient owner = new TxClient(broker.address(), id -> TxState.OPEN)) {
            for (String body : sent) {
                owner.send("orders", 0, body, 23);
            }
            TxBrokers.await("three times the maximum of checks", () -> owner.checked.size() >= 3 * MAX_CHECKS);
            assertEquals(1, broker.transactionCount(), "the transaction is still held");
            owner.commit(23);
            assertEquals(sent, visible());
        }
    }

    @Test
    void aSilentOwnerGetsItsTransactionRolledBackAfterTheMaximumOfChecks() throws Exception {
        CountDownLatch released = new CountDownLatch(1);
        try (TxClient owner = new TxClient(broker.address(), id -> {
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return TxState.OPEN;
        })) {
            owner.send("orders", 0, "h", 26);
            TxBrokers.await("the rollback after the maximum of unanswered checks",
                    () -> !owner.checked.isEmpty() && broker.transactionCount() == 0);
            released.countDown();
            RemotingCommandException refused = assertThrows(RemotingCommandException.class, () -> owner.commit(26));
            assertEquals(ErrorStatus.TRANSACTION_ROLLED_BACK, refused.status());
            assertEquals(List.of(), visible());
        } finally {
            released.countDown();
        }
    }

    @Test
    void aTransactionKeptPastTheMaximumIsRolledBackOnceItsOwnersConnectionIsGone() throws Exception {
        try (TxClient owner = new TxClient(broker.address(), id -> TxState.OPEN)) {
            owner.send("orders", 0, "h", 27);
            TxBrokers.await("twice the maximum of checks", () -> owner.checked.size() >= 2 * MAX_CHECKS);
        }
        TxBrokers.await("the rollback", () -> broker.transactionCount() == 0);
        assertEquals(List.of(), visible());
    }

    @Test
    void aTransactionKeptPastTheMaximumIsRolledBackByCheckBackWhenTheBrokerRestartsWithoutItsOwner()
            throws Exception {
        TxClient owner = new TxClient(broker.address(), id -> TxState.OPEN);
        try {
            owner.send("orders", 0, "h", 28);
            TxBrokers.await("twice the maximum of checks", () -> owner.checked.size() >= 2 * MAX_CHECKS);
            reader.close();
            broker.close();
            broker = TxBrokers.start(TxBrokers.config(dataDir, MAX_CHECKS)
                    .withTransactionChecks(TxBrokers.CHECK_AFTER, FIRST_CHECK_AFTER_RESTART, MAX_CHECKS));
            assertEquals(1, broker.transactionCount(), "the transaction came back with the broker, without its owner");
            reader = new TxClient(broker.address());
            reader.subscribe("orders", 1);
            TxBrokers.await("the rollback by check-back", () -> broker.transactionCount() == 0);
            assertEquals(List.of(), visible());
        } finally {
            owner.close();
        }
    }

    @Test
    void anOwnerAnsweringOpenMayStillCommit() throws Exception {
        try (TxClient owner = new TxClient(broker.address(), id -> TxState.OPEN)) {
            owner.send("orders", 0, "h", 24);
            TxBrokers.await("a check", () -> !owner.checked.isEmpty());
            owner.commit(24);
            assertEquals(List.of("h"), visible());
        }
    }

    @Test
    void anOwnerThatForgotTheTransactionGetsItRolledBack() throws Exception {
        try (TxClient owner = new TxClient(broker.address(), id -> TxState.UNKNOWN)) {
            owner.send("orders", 0, "h", 25);
            TxBrokers.await("the rollback", () -> !owner.checked.isEmpty() && broker.transactionCount() == 0);
            assertEquals(List.of(), visible());
        }
    }
}
