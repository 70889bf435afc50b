package io.ramjet.server.broker.security;

import io.ramjet.model.XidCodec;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.protocol.command.TxEndRequest;
import io.ramjet.protocol.command.TxPrepareRequest;
import io.ramjet.protocol.command.TxAcksRequest;
import io.ramjet.protocol.command.AckRequest;
import io.ramjet.model.MessagePosition;
import io.ramjet.protocol.command.TxQueryRequest;
import io.ramjet.protocol.command.XaRecoverResponse;
import io.ramjet.server.broker.Broker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * XA branches and transactions taken by xid or id from the wire: {@code eve} lists, ends and asks
 * about {@code alice}'s prepared branch, and sends, prepares and adds acknowledgements (TX_ACKS)
 * in her open one. Only its owner user (also on a new connection after the
 * broker was killed and restarted, as a transaction manager recovers) and an admin may. A branch
 * still open is joined by another connection of its user (one XA resource manager's connections
 * work in one branch), never by another user's.
 */
class XaBranchAttackTest {

    private static final String XID = XidCodec.encode(0x1234, new byte[] {1, 2, 3}, new byte[] {4});
    private static final long TRANSACTION = 0x5eed_cafe_f00dL;

    @TempDir
    Path dir;

    private static List<String> recover(AttackClient client) throws Exception {
        return client.invoke(CommandCode.XA_RECOVER, null).header(XaRecoverResponse.class).xids();
    }

    /** alice sends in a transaction and prepares it as an XA branch. */
    private static void alicePrepares(SecuredDeployment deployment, String address) throws Exception {
        try (AttackClient alice = new AttackClient(deployment, address, "alice")) {
            alice.send("orders.new", "order 1", TRANSACTION);
            alice.invoke(CommandCode.TX_PREPARE, new TxPrepareRequest(TRANSACTION, XID, "", List.of()));
        }
    }

    /** What eve tries against the branch; every one refused, the branch still prepared. */
    private static void eveIsRefused(SecuredDeployment deployment, String address) throws Exception {
        try (AttackClient eve = new AttackClient(deployment, address, "eve")) {
            assertEquals(List.of(), recover(eve), "eve lists no branch of alice's");
            assertEquals(ErrorStatus.NOT_AUTHORIZED, eve.refused(CommandCode.TX_END,
                    new TxEndRequest(0, XID, true, List.of())).status(), "eve commits alice's branch by xid");
            assertEquals(ErrorStatus.NOT_AUTHORIZED, eve.refused(CommandCode.TX_END,
                    new TxEndRequest(TRANSACTION, "", false, List.of())).status(), "eve rolls it back by id");
            assertEquals(ErrorStatus.AUTHENTICATION_FAILED, eve.refused(CommandCode.TX_QUERY,
                    new TxQueryRequest(TRANSACTION)).status(), "eve asks its state: no cluster member");
            assertEquals(ErrorStatus.AUTHENTICATION_FAILED, eve.refused(CommandCode.TX_QUERY,
                    new TxQueryRequest(TRANSACTION + 1)).status(), "eve decides a rollback of an id nobody holds");
        }
    }

    /** alice, on a new connection, lists the branch still prepared and commits it. */
    private static void aliceCompletes(SecuredDeployment deployment, String address) throws Exception {
        try (AttackClient ops = new AttackClient(deployment, address, "ops")) {
            assertEquals(List.of(XID), recover(ops), "an admin lists every branch");
        }
        try (AttackClient alice = new AttackClient(deployment, address, "alice")) {
            assertEquals(List.of(XID), recover(alice), "the owner lists its branch, still prepared");
            alice.invoke(CommandCode.TX_END, new TxEndRequest(0, XID, true, List.of()));
            assertEquals(List.of(), recover(alice));
        }
    }

    @Test
    void anotherConnectionOfTheOwnerJoinsAnOpenBranch() throws Exception {
        SecuredDeployment deployment = new SecuredDeployment(dir);
        SubscriptionRef queue = SubscriptionRef.queue("orders.new");
        try (Broker broker = deployment.start();
             AttackClient alice = new AttackClient(deployment, broker.address(), "alice");
             AttackClient aliceAgain = new AttackClient(deployment, broker.address(), "alice");
             AttackClient bob = new AttackClient(deployment, broker.address(), "bob")) {
            alice.send("orders.new", "order 1", TRANSACTION);
            bob.subscribe(queue, 7);
            aliceAgain.send("orders.new", "order 2", TRANSACTION);
            aliceAgain.invoke(CommandCode.TX_PREPARE, new TxPrepareRequest(TRANSACTION, XID, "", List.of()));
            alice.invoke(CommandCode.TX_END, new TxEndRequest(0, XID, true, List.of()));

            assertEquals(List.of("order 1", "order 2"), bob.pull(queue, 7, 5_000));
        }
    }

    @Test
    void anotherUserCannotJoinAnOpenBranch() throws Exception {
        SecuredDeployment deployment = new SecuredDeployment(dir);
        SubscriptionRef queue = SubscriptionRef.queue("eve.joined");
        try (Broker broker = deployment.start();
             AttackClient alice = new AttackClient(deployment, broker.address(), "alice");
             AttackClient eve = new AttackClient(deployment, broker.address(), "eve")) {
            alice.send("orders.new", "order 1", TRANSACTION);

            assertEquals(ErrorStatus.TRANSACTION_CONFLICT, eve.refusedSend("eve.joined", "eve's",
                    TRANSACTION).status(), "eve sends in alice's branch");
            assertEquals(ErrorStatus.TRANSACTION_CONFLICT, eve.refused(CommandCode.TX_PREPARE,
                    new TxPrepareRequest(TRANSACTION, XID, "", List.of())).status(), "eve prepares alice's branch");
            assertEquals(ErrorStatus.TRANSACTION_CONFLICT, eve.refused(CommandCode.TX_ACKS, new TxAcksRequest(TRANSACTION,
                    List.of(new AckRequest(8, queue, List.of(new MessagePosition(0, 0)))))).status(),
                    "eve adds what she consumed to alice's branch");
            alice.invoke(CommandCode.TX_PREPARE, new TxPrepareRequest(TRANSACTION, XID, "", List.of()));
            alice.invoke(CommandCode.TX_END, new TxEndRequest(0, XID, true, List.of()));
            eve.subscribe(queue, 8);
            assertEquals(List.of(), eve.pull(queue, 8, 300), "eve's send became part of alice's branch");
        }
    }

    @Test
    void onlyTheOwnerAndAnAdminListAndCompleteABranch() throws Exception {
        SecuredDeployment deployment = new SecuredDeployment(dir);
        try (Broker broker = deployment.start()) {
            alicePrepares(deployment, broker.address());
            PrintStream err = System.err;
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
            try {
                eveIsRefused(deployment, broker.address());
            } finally {
                System.setErr(err);
            }
            String logged = log.toString(StandardCharsets.UTF_8);
            err.print(logged);
            assertTrue(logged.contains("refused: user 'eve' may not end XA branch " + XID), "eve's attempts logged: "
                    + logged);
            aliceCompletes(deployment, broker.address());
        }
    }

    @Test
    void theOwnerStillCompletesItsBranchAfterACleanRestart() throws Exception {
        SecuredDeployment deployment = new SecuredDeployment(dir);
        try (Broker broker = deployment.start()) {
            alicePrepares(deployment, broker.address());
        }
        try (Broker restarted = deployment.start()) {
            eveIsRefused(deployment, restarted.address());
            aliceCompletes(deployment, restarted.address());
        }
    }

    @Test
    void theOwnerStillCompletesItsBranchAfterTheBrokerWasKilled() throws Exception {
        SecuredDeployment deployment = new SecuredDeployment(dir, "checkpointIntervalMs=3600000");
        try (SecuredDeployment.Child child = deployment.startChild("022")) {
            alicePrepares(deployment, child.address());
        }
        try (Broker restarted = deployment.start()) {
            assertTrue(restarted.store().recoveryReport().recordsScanned() > 0, "the branch came from the log");
            eveIsRefused(deployment, restarted.address());
            aliceCompletes(deployment, restarted.address());
        }
    }
}
