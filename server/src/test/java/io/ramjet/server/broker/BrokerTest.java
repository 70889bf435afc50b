package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.SubscriptionType;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.CreateDestinationRequest;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.command.DestinationList;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.SubscribeRequest;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.BrokerTestClient.Received;
import io.ramjet.server.broker.error.NetworkException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BrokerTest extends BrokerTestBase {

    @Test
    void aPortInUseFailsTheStartWithTheBrokersNetworkException(@TempDir Path otherDir) {
        String address = broker.address();
        int taken = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
        Broker second = new Broker(BrokerTestSupport.config(otherDir).toBuilder().port(taken).build(),
                BrokerTestSupport.store(otherDir));
        NetworkException refused = assertThrows(NetworkException.class, second::start);
        assertTrue(refused.getMessage().contains("cannot listen on 127.0.0.1:" + taken), refused.getMessage());
        assertEquals(address, broker.address(), "the first broker still serves");
    }

    @Test
    void sentMessageIsPulledOnceAndGoneAfterAck() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("orders");
        client.send("orders", DestinationKind.QUEUE, 0, "hello");
        assertEquals(2, client.subscribe(queue, 1));

        List<Received> got = client.pull(queue, 1, 10, 0);
        assertEquals(1, got.size());
        assertEquals("hello", got.get(0).body());
        assertEquals(1, got.get(0).deliveryCount());
        assertTrue(client.pull(queue, 1, 10, 0).isEmpty(), "in flight: not offered twice");

        client.ack(queue, got);
        client.closeConsumer(queue, 1);
        client.subscribe(queue, 2);
        assertTrue(client.pull(queue, 2, 10, 0).isEmpty(), "acked: never delivered again");
    }

    @Test
    void heldPullWakesWhenAMessageArrives() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("waiting");
        client.subscribe(queue, 1);
        CompletableFuture<List<Received>> held = client.pullAsync(queue, 1, 10, 30_000);
        assertFalse(held.isDone());

        client.send("waiting", DestinationKind.QUEUE, 1, "late");
        List<Received> got = held.get(10, TimeUnit.SECONDS);
        assertEquals(List.of("late"), got.stream().map(Received::body).toList());
    }

    @Test
    void heldPullAnswersEmptyWhenTheHoldEnds() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("quiet");
        client.subscribe(queue, 1);
        assertTrue(client.pull(queue, 1, 10, 100).isEmpty());
    }

    @Test
    void competingConsumersGetDisjointMessagesCoveringAll() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("work");
        int consumers = 3;
        int messages = 60;
        List<List<String>> seen = new ArrayList<>();
        CountDownLatch all = new CountDownLatch(messages);
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < consumers; c++) {
            List<String> mine = new ArrayList<>();
            seen.add(mine);
            long id = 100 + c;
            Thread t = new Thread(() -> {
                try (BrokerTestClient own = new BrokerTestClient(broker.address())) {
                    own.subscribe(queue, id);
                    while (all.getCount() > 0) {
                        List<Received> got = own.pull(queue, id, 3, 200);
                        for (Received r : got) {
                            mine.add(r.body());
                            all.countDown();
                        }
                        if (!got.isEmpty()) {
                            own.ack(queue, got);
                        }
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            threads.add(t);
            t.start();
        }
        for (int i = 0; i < messages; i++) {
            client.send("work", DestinationKind.QUEUE, i % 2, "m" + i);
        }
        assertTrue(all.await(30, TimeUnit.SECONDS), "every message delivered");
        for (Thread t : threads) {
            t.join(10_000);
        }
        Set<String> union = new HashSet<>();
        int total = 0;
        for (List<String> mine : seen) {
            union.addAll(mine);
            total += mine.size();
        }
        assertEquals(messages, total, "no message delivered twice");
        assertEquals(messages, union.size());
    }

    @Test
    void everyTopicSubscriptionSeesEveryMessage() throws Exception {
        SubscriptionRef first = SubscriptionRef.topic("news", 1);
        SubscriptionRef second = new SubscriptionRef("news", SubscriptionType.DURABLE, "client", "archive");
        client.subscribe(first, 1);
        client.subscribe(second, 2);
        for (int i = 0; i < 4; i++) {
            client.send("news", DestinationKind.TOPIC, i % 2, "n" + i);
        }
        assertEquals(Set.of("n0", "n1", "n2", "n3"), bodies(drain(first, 1)));
        assertEquals(Set.of("n0", "n1", "n2", "n3"), bodies(drain(second, 2)));
    }

    @Test
    void topicSubscriptionStartsAtTheTail() throws Exception {
        client.send("late-news", DestinationKind.TOPIC, 0, "before");
        SubscriptionRef sub = SubscriptionRef.topic("late-news", 1);
        client.subscribe(sub, 1);
        client.send("late-news", DestinationKind.TOPIC, 0, "after");
        assertEquals(Set.of("after"), bodies(drain(sub, 1)));
    }

    @Test
    void secondConsumerOnADurableSubscriptionIsAConflict() throws Exception {
        SubscriptionRef durable = new SubscriptionRef("events", SubscriptionType.DURABLE, "client", "sub");
        client.subscribe(durable, 1);
        RemotingCommandException e = assertThrows(RemotingCommandException.class, () ->
                client.invoke(CommandCode.SUBSCRIBE, new SubscribeRequest(durable, null, false, 2)));
        assertEquals(ErrorStatus.SUBSCRIPTION_CONFLICT, e.status());
    }

    @Test
    void releaseWithoutCountingRedeliversWithTheSameCount() throws Exception {
        SubscriptionRef queue = SubscriptionRef.queue("prefetch");
        client.subscribe(queue, 1);
        client.send("prefetch", DestinationKind.QUEUE, 0, "x");
        Received first = client.pull(queue, 1, 1, 0).get(0);
        client.release(queue, 1, first, false);
        assertEquals(1, client.pull(queue, 1, 1, 0).get(0).deliveryCount());
    }

    @Test
    void adminCreatesAndListsDestinations() throws Exception {
        DestinationInfo created = client.invoke(CommandCode.CREATE_DESTINATION,
                new CreateDestinationRequest("admin-made", DestinationKind.TOPIC, 3)).header(DestinationInfo.class);
        assertEquals(3, created.queueCount());
        DestinationList list = client.invoke(CommandCode.LIST_DESTINATIONS, null).header(DestinationList.class);
        assertTrue(list.destinations().contains(created));
    }

    @Test
    void sendIsRefusedWhenTheDiskIsPastItsUseLimit(@TempDir Path otherDir) throws Exception {
        Broker full = BrokerTestSupport.start(BrokerTestSupport.config(otherDir).withDiskUseLimit(1e-9));
        try (BrokerTestClient other = new BrokerTestClient(full.address())) {
            RemotingCommandException e = assertThrows(RemotingCommandException.class, () ->
                    other.send("anything", DestinationKind.QUEUE, 0, "x"));
            assertEquals(ErrorStatus.STORE_FULL, e.status());
        } finally {
            full.close();
        }
    }

    @Test
    void temporaryQueueIsOnlyForItsConnectionAndDiesWithIt() throws Exception {
        String name = client.invoke(CommandCode.CREATE_DESTINATION, CreateDestinationRequest.temporary(
                DestinationKind.QUEUE)).header(DestinationInfo.class).name();
        assertTrue(name.startsWith("TMP."), "named by the broker in its namespace: " + name);
        SubscriptionRef tmp = SubscriptionRef.queue(name);
        try (BrokerTestClient other = new BrokerTestClient(broker.address())) {
            other.send(name, DestinationKind.QUEUE, 0, "reply");
            RemotingCommandException e = assertThrows(RemotingCommandException.class, () -> other.subscribe(tmp, 9));
            assertEquals(ErrorStatus.SUBSCRIPTION_CONFLICT, e.status());
            client.subscribe(tmp, 1);
            assertEquals(List.of("reply"), client.pull(tmp, 1, 1, 0).stream().map(Received::body).toList());

            client.close();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(1)).untilAsserted(() -> assertTrue(
                    other.invoke(CommandCode.LIST_DESTINATIONS, null).header(DestinationList.class).destinations()
                            .stream().noneMatch(d -> d.name().equals(name)), "deleted with its connection"));
        }
    }

    private List<Received> drain(SubscriptionRef ref, long consumer) throws Exception {
        List<Received> all = new ArrayList<>();
        List<Received> got;
        while (!(got = client.pull(ref, consumer, 10, 200)).isEmpty()) {
            all.addAll(got);
            client.ack(ref, got);
        }
        return all;
    }

    private static Set<String> bodies(List<Received> received) {
        Set<String> out = new HashSet<>();
        for (Received r : received) {
            out.add(r.body());
        }
        return out;
    }
}
