package io.ramjet.provider.jms;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ramjet.model.DestinationKind;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.embedded.EmbeddedCluster;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A consumer of a queue that lives on three groups, one with a backlog, one that runs dry
 * first and one with nothing: the feeds share the consumer's prefetch, and a pull the broker
 * holds for lack of messages must not keep the room the backlog's feed needs. The brokers hold
 * pulls for {@value #HOLD_MILLIS} ms here, so a drain that had to wait for one such pull to end
 * does not finish within {@link #DRAIN}. The drain itself takes well under a second; the bound
 * leaves room for a loaded machine and for a group the consumer finds only at its next
 * discovery, while staying below one hold.
 */
class ConsumerAcrossGroupsTest {

    private static final long HOLD_MILLIS = 20_000;
    private static final Duration DRAIN = Duration.ofSeconds(15);
    private static final int BACKLOG = 1_000;
    private static final int RUNS_DRY = 50;

    private static EmbeddedCluster cluster;

    @BeforeAll
    static void start() {
        cluster = EmbeddedCluster.start(3);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static Connection connect(String options) throws JMSException {
        return new RamjetConnectionFactory("ramjet://" + cluster.nameServerAddress() + options).createConnection();
    }

    /** How many messages of {@code queue} each broker stored, by broker index. */
    private static List<Long> storedPerBroker(String queue) {
        String storageName = Destination.storageName(DestinationKind.QUEUE, queue);
        List<Long> stored = new ArrayList<>();
        for (int i = 0; i < cluster.brokerCount(); i++) {
            Broker broker = cluster.broker(i);
            stored.add(IntStream.range(0, broker.config().queuesPerDestination())
                    .mapToLong(q -> broker.store().maxQueueOffset(storageName, q)).sum());
        }
        return stored;
    }

    private static void send(Session session, Queue queue, int count) throws JMSException {
        MessageProducer producer = session.createProducer(queue);
        producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        for (int i = 0; i < count; i++) {
            producer.send(session.createTextMessage("m" + i));
        }
    }

    @Test
    void aBacklogOnOneGroupDrainsWhileTheBrokersOfTheOthersHoldPullsForLackOfMessages() throws Exception {
        String name = "across-" + UUID.randomUUID().toString().substring(0, 8);
        try (Connection producing = connect("")) {
            // two sessions of one connection take consecutive queue choices: two different groups
            Session small = producing.createSession(Session.AUTO_ACKNOWLEDGE);
            Session large = producing.createSession(Session.AUTO_ACKNOWLEDGE);
            send(small, small.createQueue(name), RUNS_DRY);
            send(large, large.createQueue(name), BACKLOG);
        }
        List<Long> stored = storedPerBroker(name);
        assertEquals(List.of(0L, (long) RUNS_DRY, (long) BACKLOG),
                stored.stream().sorted().toList(), "one group empty, one small, one with the backlog: " + stored);

        try (Connection consuming = connect("?prefetch=100&pullHoldMillis=" + HOLD_MILLIS)) {
            Session session = consuming.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(name));
            consuming.start();
            int[] received = {0};
            await().atMost(DRAIN).pollInterval(Duration.ZERO).until(() -> {
                while (consumer.receive(10) != null) {
                    received[0]++;
                }
                return received[0] == BACKLOG + RUNS_DRY;
            });
        }
    }

    @Test
    void aBrokerThatJustGaveItsLastMessageDoesNotKeepTheRoomTheOthersNeed() throws Exception {
        String name = "emptied-" + UUID.randomUUID().toString().substring(0, 8);
        try (Connection producing = connect("");
             Connection consuming = connect("?prefetch=100&pullHoldMillis=" + HOLD_MILLIS)) {
            // two sessions of one connection take consecutive queue choices: two different groups
            Session one = producing.createSession(Session.AUTO_ACKNOWLEDGE);
            Session backlog = producing.createSession(Session.AUTO_ACKNOWLEDGE);
            Session session = consuming.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(name));
            consuming.start();
            AtomicInteger received = new AtomicInteger();
            Thread receiving = new Thread(() -> {
                try {
                    while (!Thread.currentThread().isInterrupted()) {
                        if (consumer.receive(10) != null) {
                            received.incrementAndGet();
                        }
                    }
                } catch (JMSException closed) {
                    // the consumer closed with its connection
                }
            }, "receiving");
            receiving.start();
            try {
                // a backlog on one group opens the consumer's window to its whole prefetch
                send(backlog, backlog.createQueue(name), 300);
                await().atMost(DRAIN).until(() -> received.get() == 300);
                // another group's one message: the pull that brings it asks for one, and brings all it asked for
                send(one, one.createQueue(name), 1);
                await().atMost(DRAIN).until(() -> received.get() == 301);
                // a new backlog on the first group drains, though the second has nothing more to give
                send(backlog, backlog.createQueue(name), BACKLOG);
                await().atMost(DRAIN).until(() -> received.get() == 301 + BACKLOG);
            } finally {
                receiving.interrupt();
                receiving.join();
            }
        }
        List<Long> stored = storedPerBroker(name);
        assertEquals(List.of(0L, 1L, 300L + BACKLOG), stored.stream().sorted().toList(),
                "one group empty, one with one message, one with the backlogs: " + stored);
    }
}
