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
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The broker asks the owning connection about transactions older than the check timeout. */
class CheckBackTest {

    @TempDir
    Path dataDir;

    private Broker broker;
    private TxClient reader;

    @BeforeEach
    void start() throws Exception {
        broker = TxBrokers.start(TxBrokers.config(dataDir, 3));
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
    void anOwnerAnsweringOpenIsAskedAgainThenRolledBackAfterTheMaximum() throws Exception {
        try (TxClient owner = new TxClient(broker.address(), id -> TxState.OPEN)) {
            owner.send("orders", 0, "h", 23);
            TxBrokers.await("two checks", () -> owner.checked.size() >= 2);
            TxBrokers.await("the rollback after three checks", () -> broker.transactionCount() == 0);
            assertEquals(3, owner.checked.size());
            assertEquals(List.of(), visible());
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
