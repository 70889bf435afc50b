package io.ramjet.server.broker;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.ramjet.model.DestinationKind;
import io.ramjet.model.EpochEntry;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.protocol.command.BrowseRequest;
import io.ramjet.protocol.command.BrowseResponse;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.CreateDestinationRequest;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.command.SendResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.BrokerTestClient.Received;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.storage.MessageStore;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CommitLog replication master → slaves with real brokers on 127.0.0.1: the slaves'
 * logs are the master's bytes, their ConsumeQueues and consumption state follow, a slave serves
 * browsing only, SYNC answers once the in-sync slaves have the bytes, a restarted slave catches
 * up, and a slave whose tail was written under an older epoch truncates it and converges.
 */
class ReplicationTest {

    private static final SubscriptionRef ORDERS = SubscriptionRef.queue("orders");
    private static final Duration CATCH_UP = Duration.ofSeconds(60);

    @TempDir
    Path masterDir;
    @TempDir
    Path slaveDir;
    @TempDir
    Path secondSlaveDir;

    private static Broker master(Path dir, ReplicationConfig.Mode mode, int minInSync) throws Exception {
        return BrokerTestSupport.start(BrokerTestSupport.config(dir).withReplication(
                ReplicationConfig.DEFAULT.withMode(mode, minInSync)));
    }

    private static Broker slave(Path dir, Broker master, long brokerId) throws Exception {
        return BrokerTestSupport.start(BrokerTestSupport.config(dir).toBuilder().brokerId(brokerId).build()
                .withReplication(master.config().replication().asSlaveOf(master.address())));
    }

    /** Sends {@code count} persistent messages "prefix-i" to queue "orders", many in flight at once. */
    static List<SendResponse> send(String address, String prefix, int count) throws Exception {
        try (RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            List<CompletableFuture<Frame>> answers = new ArrayList<>();
            byte[] properties = MessagePropertiesCodec.encode(new MessageHeaders());
            for (int i = 0; i < count; i++) {
                byte[] body = (prefix + "-" + i).getBytes(StandardCharsets.UTF_8);
                answers.add(client.invoke(address, Frame.request(CommandCode.SEND, new SendRequest("orders",
                        DestinationKind.QUEUE, i % 2, true, 0, 0, properties.length),
                        Unpooled.wrappedBuffer(properties, body)),
                        BrokerTestClient.TIMEOUT));
                if (answers.size() % 200 == 0) {
                    answers.get(answers.size() - 100).get(30, TimeUnit.SECONDS);
                }
            }
            List<SendResponse> responses = new ArrayList<>();
            for (CompletableFuture<Frame> answer : answers) {
                responses.add(answer.get(30, TimeUnit.SECONDS).header(SendResponse.class));
            }
            return responses;
        }
    }

    /** Waits until the slave has dispatched everything the master holds now. */
    static void awaitCaughtUp(Broker slave, Broker master) throws Exception {
        slave.store().dispatchedTo(master.store().maxPhysicalOffset()).get(CATCH_UP.toSeconds(), TimeUnit.SECONDS);
    }

    static void assertSameLog(MessageStore expected, MessageStore actual) {
        assertEquals(expected.maxPhysicalOffset(), actual.maxPhysicalOffset(), "log ends");
        long offset = expected.minPhysicalOffset();
        while (offset < expected.maxPhysicalOffset()) {
            ByteBuffer a = expected.readReplicable(offset, 1 << 20);
            assertEquals(a, actual.readReplicable(offset, 1 << 20), "bytes at " + offset);
            offset += a.remaining();
        }
    }

    static void assertSameQueues(MessageStore expected, MessageStore actual, String destination, int queues) {
        for (int q = 0; q < queues; q++) {
            long end = expected.maxQueueOffset(destination, q);
            assertEquals(end, actual.maxQueueOffset(destination, q), "end of queue " + q);
            for (long at = 0; at < end; at += 1_000) {
                assertEquals(expected.readQueue(destination, q, at, 1_000), actual.readQueue(destination, q, at, 1_000),
                        "entries of queue " + q + " from " + at);
            }
        }
    }

    private static Set<String> drain(BrokerTestClient client, long consumer) throws Exception {
        Set<String> bodies = new HashSet<>();
        List<Received> got;
        while (!(got = client.pull(ORDERS, consumer, 64, 500)).isEmpty()) {
            got.forEach(r -> assertTrue(bodies.add(r.body()), "delivered twice: " + r.body()));
            client.ack(ORDERS, got);
        }
        return bodies;
    }

    @Test
    void slavesHoldTheMastersBytesQueuesAndConsumptionStateAndAPromotedSlaveDeliversTheUnacknowledged()
            throws Exception {
        Set<String> unacknowledged = new HashSet<>();
        try (Broker master = master(masterDir, ReplicationConfig.Mode.ASYNC, 1);
             Broker slave = slave(slaveDir, master, 1);
             Broker second = slave(secondSlaveDir, master, 2)) {
            send(master.address(), "m", 10_000);
            try (BrokerTestClient client = new BrokerTestClient(master.address())) {
                client.subscribe(ORDERS, 1);
                int acked = 0;
                while (acked < 5_000) {
                    List<Received> got = client.pull(ORDERS, 1, 100, 500);
                    client.ack(ORDERS, got);
                    acked += got.size();
                }
                client.closeConsumer(ORDERS, 1);
            }
            awaitCaughtUp(slave, master);
            awaitCaughtUp(second, master);
            for (Broker s : List.of(slave, second)) {
                assertSameLog(master.store(), s.store());
                assertSameQueues(master.store(), s.store(), "orders", 2);
                assertEquals(master.epochs(), s.epochs());
            }
            assertEquals(Set.of(1L, 2L), master.inSyncReplicas());
            try (BrokerTestClient client = new BrokerTestClient(master.address())) {
                client.subscribe(ORDERS, 2);
                unacknowledged.addAll(drainWithoutAck(client, 2));
                client.closeConsumer(ORDERS, 2);
            }
            assertEquals(5_000, unacknowledged.size());
        }
        try (Broker promoted = BrokerTestSupport.start(BrokerTestSupport.config(slaveDir));
             BrokerTestClient client = new BrokerTestClient(promoted.address())) {
            assertEquals(2, promoted.epochs().size(), "the promoted slave writes in a new epoch");
            client.subscribe(ORDERS, 1);
            assertEquals(unacknowledged, drain(client, 1));
        }
    }

    /** Pulls everything, acknowledging nothing; the consumer's close gives it back. */
    private static Set<String> drainWithoutAck(BrokerTestClient client, long consumer) throws Exception {
        Set<String> bodies = new HashSet<>();
        List<Received> got;
        while (!(got = client.pull(ORDERS, consumer, 64, 300)).isEmpty()) {
            got.forEach(r -> bodies.add(r.body()));
        }
        return bodies;
    }

    @Test
    void aSlaveRefusesSendsAndConsumersButBrowses() throws Exception {
        try (Broker master = master(masterDir, ReplicationConfig.Mode.ASYNC, 1);
             Broker slave = slave(slaveDir, master, 1)) {
            send(master.address(), "m", 10);
            awaitCaughtUp(slave, master);
            try (BrokerTestClient client = new BrokerTestClient(slave.address())) {
                RemotingCommandException refused = assertThrows(RemotingCommandException.class,
                        () -> client.send("orders", DestinationKind.QUEUE, 0, "x"));
                assertEquals(ErrorStatus.NOT_MASTER, refused.status());
                refused = assertThrows(RemotingCommandException.class, () -> client.subscribe(ORDERS, 1));
                assertEquals(ErrorStatus.NOT_MASTER, refused.status());
                BrowseResponse browsed = client.invoke(CommandCode.BROWSE, new BrowseRequest("orders", 0, 0, 100, null))
                        .header(BrowseResponse.class);
                assertTrue(!browsed.messages().isEmpty() && browsed.messages().size() <= 10,
                        "the slave browses its replicated queue: " + browsed.messages().size());
            }
        }
    }

    @Test
    void syncSendsReturnOnlyOnceTheInSyncSlaveHasThemAndFailWhenItIsGone() throws Exception {
        try (Broker master = BrokerTestSupport.start(BrokerTestSupport.config(masterDir).withReplication(
                new ReplicationConfig(ReplicationConfig.Role.MASTER, null, ReplicationConfig.Mode.SYNC, 2,
                        Duration.ofSeconds(1), Duration.ofSeconds(2), 0)))) {
            try (Broker slave = slave(slaveDir, master, 1);
                 BrokerTestClient client = new BrokerTestClient(master.address())) {
                for (int i = 0; i < 200; i++) {
                    SendResponse sent = client.send("orders", DestinationKind.QUEUE, i % 2, "s-" + i);
                    assertTrue(slave.store().flushedOffset() > sent.physicalOffset(),
                            "message " + i + " at " + sent.physicalOffset() + " flushed on the slave when the send returned");
                }
            }
            try (BrokerTestClient client = new BrokerTestClient(master.address())) {
                RemotingCommandException failed = assertThrows(RemotingCommandException.class,
                        () -> client.send("orders", DestinationKind.QUEUE, 0, "alone"));
                assertEquals(ErrorStatus.INTERNAL_ERROR, failed.status());
            }
        }
    }

    /**
     * Losing one of two slaves under SYNC with {@code minInSyncReplicas=2} is invisible to
     * producers: its closed connection takes it out of the in-sync set at once, and the master
     * and the other slave answer the writes, long before it would have lagged out.
     */
    @Test
    void aSlaveThatDiesLeavesTheSetAtOnceAndSendsGoOnWithTheOther() throws Exception {
        try (Broker master = BrokerTestSupport.start(BrokerTestSupport.config(masterDir).withReplication(
                new ReplicationConfig(ReplicationConfig.Role.MASTER, null, ReplicationConfig.Mode.SYNC, 2,
                        Duration.ofMinutes(5), Duration.ofSeconds(5), 0)));
             Broker slave = slave(slaveDir, master, 1);
             BrokerTestClient client = new BrokerTestClient(master.address())) {
            Broker second = slave(secondSlaveDir, master, 2);
            await().atMost(CATCH_UP).pollInSameThread().untilAsserted(() -> {
                client.send("orders", DestinationKind.QUEUE, 0, "before");
                assertEquals(Set.of(1L, 2L), master.inSyncReplicas(), "both slaves in sync");
            });

            second.close();

            for (int i = 0; i < 20; i++) {
                SendResponse sent = client.send("orders", DestinationKind.QUEUE, i % 2, "after-" + i);
                assertTrue(slave.store().flushedOffset() > sent.physicalOffset(), "on the remaining slave");
            }
            assertEquals(Set.of(1L), master.inSyncReplicas());
        }
    }

    /**
     * Requests that wait for the in-sync set (here, destinations created at once by more clients
     * than the broker has request threads) do not hold up the slave's fetches they wait for: the
     * slave is served apart, so each create returns as soon as the slave has it, not after the
     * synchronous timeout.
     */
    @Test
    void writesWaitingForTheSlaveDoNotHoldUpItsFetches() throws Exception {
        Duration syncTimeout = Duration.ofSeconds(10);
        try (Broker master = BrokerTestSupport.start(BrokerTestSupport.config(masterDir).withReplication(
                new ReplicationConfig(ReplicationConfig.Role.MASTER, null, ReplicationConfig.Mode.SYNC, 2,
                        Duration.ofMinutes(5), syncTimeout, 0)));
             Broker slave = slave(slaveDir, master, 1);
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            try (BrokerTestClient first = new BrokerTestClient(master.address())) {
                first.send("orders", DestinationKind.QUEUE, 0, "the slave is in sync");
            }
            int concurrent = 4 * Math.max(4, Runtime.getRuntime().availableProcessors() * 2);
            long started = System.nanoTime();
            List<CompletableFuture<Frame>> creates = new ArrayList<>();
            for (int i = 0; i < concurrent; i++) {
                creates.add(client.invoke(master.address(), Frame.request(CommandCode.CREATE_DESTINATION,
                        new CreateDestinationRequest("created-" + i, DestinationKind.QUEUE, 1, false)),
                        syncTimeout.multipliedBy(2)));
            }
            for (CompletableFuture<Frame> create : creates) {
                create.get(30, TimeUnit.SECONDS);
            }
            long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
            assertTrue(millis < syncTimeout.toMillis() / 2, concurrent + " creates took " + millis
                    + " ms; each waits only for the slave's next fetch");
        }
    }

    /**
     * Under SYNC a master dispatches a record only once the in-sync set holds it: a message a
     * consumer received from a master that then died before its slaves had it would be resent by
     * its producer to the next master and delivered again as new, without JMSRedelivered.
     */
    @Test
    void aConsumerReceivesNoMessageBeforeTheInSyncSetHoldsIt() throws Exception {
        try (Broker master = BrokerTestSupport.start(BrokerTestSupport.config(masterDir).withReplication(
                new ReplicationConfig(ReplicationConfig.Role.MASTER, null, ReplicationConfig.Mode.SYNC, 2,
                        Duration.ofSeconds(1), Duration.ofSeconds(2), 0)));
             BrokerTestClient consumer = new BrokerTestClient(master.address());
             BrokerTestClient producer = new BrokerTestClient(master.address())) {
            try (Broker slave = slave(slaveDir, master, 1)) {
                // the subscription, the pull's MARK and the ack are SYNC writes too: while the slave is there
                consumer.subscribe(ORDERS, 1);
                producer.send("orders", DestinationKind.QUEUE, 0, "held-by-both");
                List<Received> before = consumer.pull(ORDERS, 1, 64, 5_000);
                assertEquals(List.of("held-by-both"), before.stream().map(Received::body).toList());
                consumer.ack(ORDERS, before);
            }
            CompletableFuture<SendResponse> alone = CompletableFuture.supplyAsync(() -> {
                try {
                    return producer.send("orders", DestinationKind.QUEUE, 0, "on-the-master-only");
                } catch (Exception e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            assertEquals(List.of(), consumer.pull(ORDERS, 1, 64, 1_500), "delivered while no slave held it");
            assertThrows(Exception.class, () -> alone.get(30, TimeUnit.SECONDS), "no slave, the send fails");
            assertTrue(master.store().maxPhysicalOffset() > master.store().dispatchedOffset(),
                    "stored on the master, not dispatched");
            try (Broker slave = slave(slaveDir, master, 1)) {
                List<Received> after = consumer.pull(ORDERS, 1, 64, CATCH_UP.toMillis());
                assertEquals(List.of("on-the-master-only"), after.stream().map(Received::body).toList(),
                        "delivered once the returned slave holds it");
            }
        }
    }

    @Test
    void aRestartedSlaveCatchesUp() throws Exception {
        try (Broker master = master(masterDir, ReplicationConfig.Mode.ASYNC, 1)) {
            send(master.address(), "a", 1_000);
            long stoppedAt;
            try (Broker slave = slave(slaveDir, master, 1)) {
                awaitCaughtUp(slave, master);
                stoppedAt = slave.store().maxPhysicalOffset();
            }
            send(master.address(), "b", 1_000);
            try (Broker slave = slave(slaveDir, master, 1)) {
                awaitCaughtUp(slave, master);
                assertEquals(master.store().maxPhysicalOffset() - stoppedAt, slave.bytesReplicated(),
                        "the restarted slave fetched only what it lacked");
                assertSameLog(master.store(), slave.store());
                assertSameQueues(master.store(), slave.store(), "orders", 2);
            }
        }
    }

    @Test
    void aSlaveWithATailOfAnOlderEpochTruncatesItAndConverges() throws Exception {
        long diverged;
        try (Broker first = master(masterDir, ReplicationConfig.Mode.ASYNC, 1)) {
            send(first.address(), "common", 300);
            try (Broker follower = slave(slaveDir, first, 1)) {
                awaitCaughtUp(follower, first);
                diverged = follower.store().maxPhysicalOffset();
            }
            send(first.address(), "lost", 200);
        }
        try (Broker promoted = BrokerTestSupport.start(BrokerTestSupport.config(slaveDir).withReplication(
                ReplicationConfig.DEFAULT.asMaster(7)))) {
            send(promoted.address(), "new", 150);
            try (Broker formerMaster = BrokerTestSupport.start(BrokerTestSupport.config(masterDir).toBuilder()
                    .brokerId(1).build().withReplication(ReplicationConfig.DEFAULT.asSlaveOf(promoted.address())))) {
                awaitCaughtUp(formerMaster, promoted);
                assertSameLog(promoted.store(), formerMaster.store());
                assertSameQueues(promoted.store(), formerMaster.store(), "orders", 2);
                assertEquals(promoted.epochs(), formerMaster.epochs());
                assertEquals(new EpochEntry(7, diverged), promoted.epochs().get(promoted.epochs().size() - 1),
                        "the promoted slave writes in the epoch it was given, from its end");
            }
        }
        try (Broker again = BrokerTestSupport.start(BrokerTestSupport.config(masterDir));
             BrokerTestClient client = new BrokerTestClient(again.address())) {
            client.subscribe(ORDERS, 1);
            Set<String> bodies = drain(client, 1);
            assertEquals(450, bodies.size());
            assertTrue(bodies.stream().noneMatch(b -> b.startsWith("lost")), "the old epoch's tail is gone");
        }
    }
}
