package io.ramjet.server.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.controller.ClusterSecret;
import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.AuthenticateRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.ReplicaFetchRequest;
import io.ramjet.protocol.command.ReplicaHandshakeRequest;
import io.ramjet.protocol.command.TxQueryRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.broker.security.PasswordHash;
import io.ramjet.server.cluster.ClusterIntroduction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replication and transaction queries are for proven members of the cluster only, whoever else
 * asks: a user with a login ({@code eve}), a connection without credentials where anonymous
 * connections are allowed, a peer with the wrong cluster secret, a member asking in another
 * broker's name. Real brokers on 127.0.0.1; a fake slave is a plain client speaking the
 * replication commands.
 */
class ClusterIdentityTest {

    private static final String GROUP = BrokerConfig.defaults(Path.of("unused")).brokerName();
    private static final long FAKE_SLAVE_ID = 7;

    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T opened(T closeable) {
        open.add(closeable);
        return closeable;
    }

    /** A master with users alice (who sends) and eve (who has nothing to do with replication). */
    private Broker master(boolean allowAnonymous, ReplicationConfig replication) throws Exception {
        Path users = dir.resolve("users.properties");
        Files.writeString(users, "alice = " + PasswordHash.of("wonderland".toCharArray()).encoded() + "\n"
                + "eve = " + PasswordHash.of("eavesdrop".toCharArray()).encoded() + "\n");
        return opened(BrokerTestSupport.start(BrokerTestSupport.config(dir.resolve("master"))
                .withSecurity(users, allowAnonymous).withReplication(replication)));
    }

    private BrokerTestClient client(Broker broker, String user, String password) throws Exception {
        BrokerTestClient client = opened(new BrokerTestClient(broker.address()));
        if (user != null) {
            client.invoke(CommandCode.AUTHENTICATE, new AuthenticateRequest(user, password));
        }
        return client;
    }

    private static int refusal(BrokerTestClient client, short code, Object header) {
        return assertThrows(RemotingCommandException.class, () -> client.invoke(code, header),
                CommandCode.name(code) + " must be refused").status();
    }

    private static void assertNoReplication(BrokerTestClient client) {
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, refusal(client, CommandCode.REPLICA_HANDSHAKE,
                new ReplicaHandshakeRequest(GROUP, FAKE_SLAVE_ID)));
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, refusal(client, CommandCode.REPLICA_FETCH,
                new ReplicaFetchRequest(FAKE_SLAVE_ID, 0, 1 << 20, 0)));
    }

    @Test
    void aUserWithALoginGetsNoReplicaHandshakeAndNoCommitLogBytes() throws Exception {
        Broker master = master(false, ReplicationConfig.DEFAULT);
        client(master, "alice", "wonderland").send("orders", DestinationKind.QUEUE, 0, "alice's secret");
        assertNoReplication(client(master, "eve", "eavesdrop"));
    }

    @Test
    void anAnonymousConnectionGetsNoReplicaHandshakeAndNoCommitLogBytes() throws Exception {
        Broker master = master(true, ReplicationConfig.DEFAULT);
        client(master, "alice", "wonderland").send("orders", DestinationKind.QUEUE, 0, "alice's secret");
        assertNoReplication(client(master, null, null));
    }

    @Test
    void aTransactionQueryFromAUserOrAnAnonymousConnectionIsRefused() throws Exception {
        Broker master = master(true, ReplicationConfig.DEFAULT);
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, refusal(client(master, "eve", "eavesdrop"),
                CommandCode.TX_QUERY, new TxQueryRequest(1)));
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, refusal(client(master, null, null),
                CommandCode.TX_QUERY, new TxQueryRequest(1)));
    }

    @Test
    void aPeerWithAnotherSecretIsNotAMemberAndGetsNoCommitLogBytes() throws Exception {
        Broker master = master(true, ReplicationConfig.DEFAULT);
        RemotingClient remoting = opened(new RemotingClient(RemotingClientConfig.defaults()));
        ClusterIntroduction impostor = new ClusterIntroduction(ClusterSecret.of("a guess at the cluster secret"),
                GROUP, FAKE_SLAVE_ID);
        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> impostor.to(remoting, master.address(), BrokerTestClient.TIMEOUT).get(30, TimeUnit.SECONDS));
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, RemotingClient.unwrap(refused) instanceof
                RemotingCommandException command ? command.status() : -1);
        RemotingCommandException fetch = assertThrows(RemotingCommandException.class, () -> remoting.invokeSync(
                master.address(), Frame.request(CommandCode.REPLICA_FETCH,
                        new ReplicaFetchRequest(FAKE_SLAVE_ID, 0, 1 << 20, 0)), BrokerTestClient.TIMEOUT));
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, fetch.status());
    }

    @Test
    void aProvenMemberFetchesOnlyInItsOwnNameAndGroup() throws Exception {
        Broker master = master(true, ReplicationConfig.DEFAULT);
        RemotingClient remoting = opened(new RemotingClient(RemotingClientConfig.defaults()));
        new ClusterIntroduction(BrokerTestSupport.CLUSTER_SECRET, "another-group", 2)
                .to(remoting, master.address(), BrokerTestClient.TIMEOUT).get(30, TimeUnit.SECONDS);
        RemotingCommandException otherGroup = assertThrows(RemotingCommandException.class, () -> remoting.invokeSync(
                master.address(), Frame.request(CommandCode.REPLICA_FETCH,
                        new ReplicaFetchRequest(2, 0, 1 << 20, 0)), BrokerTestClient.TIMEOUT));
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, otherGroup.status());

        new ClusterIntroduction(BrokerTestSupport.CLUSTER_SECRET, GROUP, 2)
                .to(remoting, master.address(), BrokerTestClient.TIMEOUT).get(30, TimeUnit.SECONDS);
        RemotingCommandException otherId = assertThrows(RemotingCommandException.class, () -> remoting.invokeSync(
                master.address(), Frame.request(CommandCode.REPLICA_FETCH,
                        new ReplicaFetchRequest(FAKE_SLAVE_ID, 0, 1 << 20, 0)), BrokerTestClient.TIMEOUT));
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, otherId.status());
        remoting.invokeSync(master.address(), Frame.request(CommandCode.REPLICA_FETCH,
                new ReplicaFetchRequest(2, 0, 1 << 20, 0)), BrokerTestClient.TIMEOUT);
    }

    /**
     * A SYNC master with minInSyncReplicas=2 and no real slave: eve, logged in, runs the
     * replication protocol as slave 7 as fast as the master answers. Her fetches must not make
     * her a replica: no send is acknowledged, the in-sync set stays the master alone.
     */
    @Test
    void aFakeSlaveWithALoginDoesNotJoinTheInSyncSetOfASyncMaster() throws Exception {
        Broker master = master(false, new ReplicationConfig(ReplicationConfig.Role.MASTER, null,
                ReplicationConfig.Mode.SYNC, 2, Duration.ofSeconds(1), Duration.ofSeconds(2), 0));
        BrokerTestClient eve = client(master, "eve", "eavesdrop");
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger answered = new AtomicInteger();
        Thread fakeSlave = new Thread(() -> {
            while (running.get()) {
                try {
                    eve.invoke(CommandCode.REPLICA_HANDSHAKE, new ReplicaHandshakeRequest(GROUP, FAKE_SLAVE_ID));
                    eve.invoke(CommandCode.REPLICA_FETCH, new ReplicaFetchRequest(FAKE_SLAVE_ID,
                            master.store().maxPhysicalOffset(), 1 << 20, 100));
                    answered.incrementAndGet();
                } catch (Exception refused) {
                    // refused, as it must be: ask again soon, as an attacker would
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                }
            }
        }, "fake-slave");
        fakeSlave.start();
        try {
            BrokerTestClient alice = client(master, "alice", "wonderland");
            for (int i = 0; i < 3; i++) {
                RemotingCommandException failed = assertThrows(RemotingCommandException.class,
                        () -> alice.send("orders", DestinationKind.QUEUE, 0, "needs two copies"),
                        "a SYNC send with minInSyncReplicas=2 acknowledged with no real slave");
                assertEquals(ErrorStatus.INTERNAL_ERROR, failed.status());
                assertFalse(master.inSyncReplicas().contains(FAKE_SLAVE_ID), "the fake slave joined the in-sync set");
            }
            assertEquals(0, answered.get(), "the master answered the fake slave");
        } finally {
            running.set(false);
            fakeSlave.join(TimeUnit.SECONDS.toMillis(10));
        }
    }

    @Test
    void aSlaveWithAnotherSecretCannotJoinItsMaster() throws Exception {
        Broker master = master(true, ReplicationConfig.DEFAULT);
        BrokerConfig slave = BrokerTestSupport.config(dir.resolve("slave")).toBuilder().brokerId(1)
                .clusterSecret(ClusterSecret.of("not the group's cluster secret")).build()
                .withReplication(master.config().replication().asSlaveOf(master.address()));
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> opened(BrokerTestSupport.start(slave)));
        assertTrue(refused.getMessage().contains("cluster"), refused.getMessage());
    }
}
