package io.ramjet.server.broker.transaction;

import io.ramjet.model.TxState;
import io.ramjet.model.XidCodec;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.transaction.TxClient.Received;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Open and prepared transactions across a restart: after a clean stop they come from the
 * snapshot, after {@code kill -9} from the log; local ones resolve by check-back, XA branches
 * wait for XA_RECOVER and an end by xid.
 */
class TransactionRecoveryTest {

    private static final String XID = XidCodec.encode(7, new byte[] {1, 2, 3}, new byte[] {4});

    @TempDir
    Path dataDir;
    @TempDir
    Path coordinatorDir;

    private static List<String> bodies(List<Received> messages) {
        return messages.stream().map(Received::body).toList();
    }

    /**
     * Through {@code client}, which stays connected: "job" consumed by an XA branch that also
     * sent "xa-result" and prepared; an open local transaction with a half "open-result"; a
     * local transaction prepared with {@code coordinator} that sent "local-result"; and two
     * decided ones, 45 rolled back and 46 committed.
     */
    private static void leaveUndecided(TxClient client, String coordinator) throws Exception {
        client.send("in", 0, "job", 0);
        client.subscribe("in", 7);
        List<Received> taken = client.pull("in", 7, 1, 1000);
        assertEquals(1, taken.size());
        client.send("out", 0, "xa-result", 41);
        client.prepare(41, XID, "", TxClient.acks("in", taken));
        client.send("out", 0, "open-result", 42);
        client.send("out", 0, "local-result", 43);
        client.prepare(43, "", coordinator, List.of());
        client.send("other", 0, "rolled back", 45);
        client.end(45, "", false, List.of());
        client.send("other", 0, "committed", 46);
        client.commit(46);
    }

    /** After the restart: the open one rolled back, the prepared local one as its coordinator says, XA listed. */
    private static void assertResolved(Broker restarted, List<String> localOutcome) throws Exception {
        try (TxClient client = new TxClient(restarted.address())) {
            TxBrokers.await("the check-backs", () -> restarted.transactionCount() == 1);
            assertEquals(List.of(XID), client.recover());
            client.subscribe("in", 1);
            assertEquals(List.of(), client.pull("in", 1, 10, 100), "the XA branch still holds what it consumed");
            client.subscribe("out", 2);
            assertEquals(localOutcome, bodies(client.drain("out", 2, 100)));
            RemotingCommandException refused = assertThrows(RemotingCommandException.class, () -> client.commit(42));
            assertEquals(ErrorStatus.TRANSACTION_ROLLED_BACK, refused.status());
            RemotingCommandException remembered = assertThrows(RemotingCommandException.class,
                    () -> client.commit(45));
            assertEquals(ErrorStatus.TRANSACTION_ROLLED_BACK, remembered.status());
            assertEquals(TxState.COMMITTED, client.query(46));
            client.subscribe("other", 3);
            assertEquals(List.of("committed"), bodies(client.drain("other", 3, 100)));

            client.end(0, XID, true, List.of());
            assertEquals(List.of(), client.recover());
            assertEquals(List.of("xa-result"), bodies(client.drain("out", 2, 100)));
            assertEquals(List.of(), client.pull("in", 1, 10, 100), "the commit acknowledged the job");
            RemotingCommandException forgotten = assertThrows(RemotingCommandException.class,
                    () -> client.end(0, XID, true, List.of()));
            assertEquals(ErrorStatus.UNKNOWN_TRANSACTION, forgotten.status(), "a decided branch is forgotten (XAER_NOTA)");
        }
    }

    @Test
    void undecidedTransactionsSurviveACheckpointAndACleanRestart() throws Exception {
        Broker coordinator = TxBrokers.start(coordinatorDir);
        try {
            Broker first = TxBrokers.start(TxBrokers.config(dataDir, 15)
                    .withTransactionChecks(java.time.Duration.ofHours(1), TxBrokers.CHECK_INTERVAL, 15));
            try (TxClient client = new TxClient(first.address())) {
                leaveUndecided(client, coordinator.address());
                assertEquals(3, first.transactionCount());
                first.close();
            }

            Broker second = TxBrokers.start(dataDir);
            try {
                assertEquals(0, second.store().recoveryReport().recordsScanned(), "state came from the snapshot");
                assertResolved(second, List.of());
            } finally {
                second.close();
            }
        } finally {
            coordinator.close();
        }
    }

    @Test
    void aPreparedXaBranchRolledBackAfterARestartRedeliversWhatItConsumedCountedOnce() throws Exception {
        Broker first = TxBrokers.start(dataDir);
        try (TxClient client = new TxClient(first.address())) {
            client.send("in", 0, "job", 0);
            client.subscribe("in", 7);
            List<Received> taken = client.pull("in", 7, 1, 1000);
            client.send("out", 0, "xa-result", 44);
            client.prepare(44, XID, "", TxClient.acks("in", taken));
            first.close();
        }
        Broker second = TxBrokers.start(dataDir);
        try (TxClient client = new TxClient(second.address())) {
            assertEquals(List.of(XID), client.recover());
            client.end(0, XID, false, List.of());
            assertEquals(List.of(), client.recover());
            client.subscribe("in", 1);
            List<Received> again = client.pull("in", 1, 10, 1000);
            assertEquals(List.of("job"), bodies(again));
            assertEquals(2, again.get(0).deliveryCount());
            client.subscribe("out", 2);
            assertEquals(List.of(), client.pull("out", 2, 10, 100));
            RemotingCommandException unknown = assertThrows(RemotingCommandException.class,
                    () -> client.end(0, XidCodec.encode(7, new byte[] {9}, new byte[] {9}), true, List.of()));
            assertEquals(ErrorStatus.UNKNOWN_TRANSACTION, unknown.status());
        } finally {
            second.close();
        }
    }

    @Test
    void aKilledBrokerResolvesLocalTransactionsByCheckBackAndKeepsXaBranches() throws Exception {
        Broker coordinator = TxBrokers.start(coordinatorDir);
        try {
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), TxBrokerProcess.class.getName(),
                    dataDir.toString(), "3600000")
                    .redirectError(ProcessBuilder.Redirect.appendTo(
                            Path.of("target", "tx-broker-process.log").toFile()))
                    .start();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                        StandardCharsets.UTF_8));
                String line;
                while ((line = out.readLine()) != null && !line.startsWith("PORT ")) {
                    // skip log lines
                }
                assertTrue(line != null, "child broker printed its port");
                try (TxClient client = new TxClient("127.0.0.1:" + line.substring(5).trim());
                     TxClient toCoordinator = new TxClient(coordinator.address())) {
                    leaveUndecided(client, coordinator.address());
                    toCoordinator.commit(43);
                    child.destroyForcibly();
                    assertTrue(child.waitFor(20, TimeUnit.SECONDS));
                }
            } finally {
                child.destroyForcibly();
            }

            Broker restarted = TxBrokers.start(dataDir);
            try {
                assertTrue(restarted.store().recoveryReport().recordsScanned() > 0, "state came from the log");
                assertResolved(restarted, List.of("local-result"));
            } finally {
                restarted.close();
            }
        } finally {
            coordinator.close();
        }
    }
}
