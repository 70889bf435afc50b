package io.ramjet.controller;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.controller.ControllerRequest.AlterInSyncSet;
import io.ramjet.controller.ControllerRequest.ElectMaster;
import io.ramjet.controller.ControllerRequest.GetReplicaInfo;
import io.ramjet.controller.ControllerRequest.Heartbeat;
import io.ramjet.controller.ControllerRequest.RegisterBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.exceptions.LeaderNotReadyException;
import org.apache.ratis.protocol.exceptions.NotLeaderException;
import org.apache.ratis.retry.ExceptionDependentRetry;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.MD5FileUtil;
import org.apache.ratis.util.TimeDuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller group hears members of the cluster only. An outsider speaking the controller
 * protocol to the group's Ratis port, unsigned (as any client could before) or signed with a
 * secret of its own, can neither read a broker group's state, nor register a fake broker, nor
 * heartbeat it, nor put it in the in-sync set, nor call an election; the group's state is what
 * the members made it. Three real Ratis controllers in this JVM on 127.0.0.1.
 */
class ControllerSecurityTest {

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration SETTLE = Duration.ofSeconds(20);
    private static final long FAKE_BROKER = 66;

    @TempDir
    Path dir;

    private ControllerGroup group;
    private final ControllerNode[] nodes = new ControllerNode[3];
    private ControllerClient member;

    @BeforeEach
    void startGroupWithAMaster() throws Exception {
        group = FreePorts.groupOf(3);
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = ControllerNode.start(config("n" + i));
        }
        member = ControllerClient.connect(group, TestClusterSecret.SECRET, CALL_TIMEOUT);
        await("broker 1 registered").atMost(SETTLE).ignoreExceptions()
                .until(() -> member.register("g1", 1, "127.0.0.1:1", 100).ok(), ok -> ok);
    }

    @AfterEach
    void stop() throws Exception {
        member.close();
        for (ControllerNode node : nodes) {
            if (node != null) {
                node.close();
            }
        }
    }

    @Test
    void anUnsignedOutsiderCanNeitherReadNorRegisterNorHeartbeatNorElect() throws Exception {
        try (RaftClient outsider = rawClient(RetryPolicies.retryUpToMaximumCountWithFixedSleep(20,
                TimeDuration.valueOf(100, TimeUnit.MILLISECONDS)))) {
            assertRefused(outsider, new GetReplicaInfo("g1"), true);
            assertRefused(outsider, new RegisterBroker("g1", FAKE_BROKER, "evil:1", Long.MAX_VALUE / 2), false);
            assertRefused(outsider, new Heartbeat("g1", FAKE_BROKER, Long.MAX_VALUE / 2), true);
            assertRefused(outsider, new AlterInSyncSet("g1", 1, 1, Set.of(1L, FAKE_BROKER)), false);
            assertRefused(outsider, new ElectMaster("g1", true), false);
        }
        assertTheGroupIsTheMembersOnly();
    }

    @Test
    void anOutsiderWithAnotherSecretCanNeitherReadNorRegisterNorHeartbeatNorElect() throws Exception {
        try (ControllerClient outsider = ControllerClient.connect(group,
                ClusterSecret.of("a guess at the cluster secret"), CALL_TIMEOUT)) {
            assertThrows(IOException.class, () -> outsider.replicaInfo("g1"));
            assertThrows(IOException.class, () -> outsider.register("g1", FAKE_BROKER, "evil:1", Long.MAX_VALUE / 2));
            assertThrows(IOException.class, () -> outsider.heartbeat("g1", FAKE_BROKER, Long.MAX_VALUE / 2));
            assertThrows(IOException.class, () -> outsider.alterInSyncSet("g1", 1, 1, Set.of(1L, FAKE_BROKER)));
            assertThrows(IOException.class, () -> outsider.electMaster("g1", true));
        }
        assertTheGroupIsTheMembersOnly();
    }

    @Test
    void aMemberTakesNoAnswerThatIsNotSignedWithTheSecret() throws Exception {
        try (ControllerClient misconfigured = ControllerClient.connect(group,
                ClusterSecret.of("not the controllers' secret"), CALL_TIMEOUT)) {
            assertThrows(IOException.class, () -> misconfigured.replicaInfo("g1"));
        }
    }

    /**
     * Ratis serves its administrative requests to anyone who reaches the port: an outsider could
     * read the group's peers, change its membership, remove the group from a controller (its
     * directory with it), pause its elections, move its leader or take snapshots. The controllers
     * refuse every one, and the group goes on serving its members.
     */
    @Test
    void anOutsiderCanNeitherInspectNorChangeTheRaftGroupThroughRatisAdministration() throws Exception {
        RaftGroup raftGroup = group.raftGroup();
        RaftPeer target = raftGroup.getPeers().iterator().next();
        RaftPeer rogue = RaftPeer.newBuilder().setId("rogue").setAddress("127.0.0.1:1").build();
        List<RaftPeer> withRogue = new ArrayList<>(raftGroup.getPeers());
        withRogue.add(rogue);
        // retried only to find the leader: a refusal is final
        RetryPolicy toTheLeader = ExceptionDependentRetry.newBuilder().setDefaultPolicy(RetryPolicies.noRetry())
                .setExceptionToPolicy(NotLeaderException.class, RetryPolicies.retryUpToMaximumCountWithFixedSleep(20,
                        TimeDuration.valueOf(100, TimeUnit.MILLISECONDS)))
                .setExceptionToPolicy(LeaderNotReadyException.class, RetryPolicies.retryUpToMaximumCountWithFixedSleep(
                        20, TimeDuration.valueOf(100, TimeUnit.MILLISECONDS)))
                .build();
        try (RaftClient outsider = rawClient(toTheLeader)) {
            assertAdminRefused("group info", () -> outsider.getGroupManagementApi(target.getId()).info(raftGroup.getGroupId()));
            assertAdminRefused("group list", () -> outsider.getGroupManagementApi(target.getId()).list());
            assertAdminRefused("pause elections", () -> outsider.getLeaderElectionManagementApi(target.getId()).pause());
            assertAdminRefused("snapshot", () -> outsider.getSnapshotManagementApi(target.getId()).create(2_000));
            assertAdminRefused("transfer leadership", () -> outsider.admin().transferLeadership(target.getId(), 2_000));
            assertAdminRefused("membership change", () -> outsider.admin().setConfiguration(withRogue));
            assertAdminRefused("group removal", () -> outsider.getGroupManagementApi(target.getId())
                    .remove(raftGroup.getGroupId(), true, false));
        }
        assertTheGroupIsTheMembersOnly();
        for (ControllerNode node : nodes) {
            assertTrue(Files.isDirectory(dir.resolve(node.id()).resolve(raftGroup.getGroupId().getUuid().toString())),
                    node.id() + "'s group directory");
        }
        await("a member registers broker 2 after the outsider's requests").atMost(SETTLE).ignoreExceptions()
                .until(() -> member.register("g1", 2, "127.0.0.1:2", 100).ok(), ok -> ok);
    }

    /**
     * A snapshot is what a leader's InstallSnapshot leaves in a follower's storage, with a digest
     * the sender computed: an outsider posing as a leader could send any state. A controller
     * loads a snapshot only if it is signed with the cluster secret; one that is not, though its
     * digest matches, is refused and the controller does not start on it.
     */
    @Test
    void aSnapshotNotSignedWithTheSecretIsNotLoaded() throws Exception {
        for (long id = 2; id <= 7; id++) {
            long broker = id;
            await("broker " + broker + " registered").atMost(SETTLE).ignoreExceptions()
                    .until(() -> member.register("g1", broker, "127.0.0.1:" + broker, 100).ok(), ok -> ok);
        }
        Path n2 = dir.resolve("n2");
        await("n2 took a snapshot").atMost(SETTLE).until(() -> snapshots(n2).size() > 0);
        nodes[2].close();
        nodes[2] = null;
        SortedMap<Long, String> fake = new TreeMap<>(Map.of(FAKE_BROKER, "evil:1"));
        byte[] forged = ControllerCodec.encodeSnapshot(List.of(new ReplicaInfo("g1", fake, FAKE_BROKER,
                EpochHistory.EMPTY, new TreeSet<>(Set.of(FAKE_BROKER)))));
        for (Path snapshot : snapshots(n2)) {
            Files.write(snapshot, forged);
            MD5FileUtil.computeAndSaveMd5ForFile(snapshot.toFile());
        }
        Exception refused = assertThrows(Exception.class, () -> nodes[2] = ControllerNode.start(config("n2")));
        assertTrue(causes(refused).contains("cluster secret"), causes(refused));
    }

    private ControllerConfig config(String id) {
        return new ControllerConfig(id, dir.resolve(id), group, Duration.ofSeconds(3), false, Duration.ofMillis(1000),
                5, 16 * 1024, TestClusterSecret.SECRET);
    }

    private static List<Path> snapshots(Path controllerDir) throws IOException {
        try (Stream<Path> files = Files.walk(controllerDir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("snapshot.")
                    && !f.getFileName().toString().endsWith(".md5") && !f.getFileName().toString().endsWith(".partial"))
                    .toList();
        }
    }

    private static String causes(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            text.append(t).append(" / ");
        }
        return text.toString();
    }

    private interface AdminCall {
        RaftClientReply call() throws IOException;
    }

    private static void assertAdminRefused(String what, AdminCall call) {
        RaftClientReply reply;
        try {
            reply = call.call();
        } catch (IOException refused) {
            return;
        }
        assertFalse(reply.isSuccess(), what + " answered to an outsider: " + reply);
    }

    private void assertTheGroupIsTheMembersOnly() throws IOException {
        ReplicaInfo info = member.replicaInfo("g1").info();
        assertEquals(Set.of(1L), info.members().keySet(), "members of g1");
        assertEquals(1, info.masterId());
        assertFalse(info.inSync().contains(FAKE_BROKER), "the fake broker is in sync");
        assertEquals(1, info.epoch());
    }

    /** A Ratis client of the group that speaks the controller protocol without any signature. */
    private RaftClient rawClient(RetryPolicy retries) {
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.NETTY);
        RaftClientConfigKeys.Rpc.setRequestTimeout(properties, TimeDuration.valueOf(2, TimeUnit.SECONDS));
        return RaftClient.newBuilder().setProperties(properties).setRaftGroup(group.raftGroup())
                .setRetryPolicy(retries).build();
    }

    private static void assertRefused(RaftClient outsider, ControllerRequest request, boolean read) {
        Message message = Message.valueOf(ByteString.copyFrom(ControllerCodec.encode(request)));
        RaftClientReply reply;
        try {
            reply = read ? outsider.io().sendReadOnly(message) : outsider.io().send(message);
        } catch (IOException refused) {
            return;
        }
        assertFalse(reply.isSuccess(), request + " answered to an outsider");
    }
}
