package io.ramjet.provider.jms;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * AUTO_ACKNOWLEDGE acks coalesced: a batch of consumed messages goes to the broker as one ACK
 * request, counted at the client's calls to the broker; a consumer that has nothing more ready
 * acknowledges at once, without waiting for the batch's time.
 */
class AckBatchingTest extends BrokerTestSupport {

    /** A batch time no test waits for: what is sent is sent by count or by catching up. */
    private static final String NO_TIMER = "&ackBatchMillis=600000";

    private static Queue fill(Connection connection, int count) throws Exception {
        Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue(unique("ack-batch"));
        MessageProducer producer = session.createProducer(queue);
        for (int i = 0; i < count; i++) {
            producer.send(session.createTextMessage("m" + i));
        }
        session.close();
        return queue;
    }

    @Test
    void aDrainSendsItsAcksInBatches() throws Exception {
        CountingBrokerClient counting = new CountingBrokerClient();
        int count = 400;
        try (Connection connection = counting.factory(broker.nameServerAddress(), "?ackBatch=50" + NO_TIMER)
                .createConnection()) {
            connection.start();
            Queue queue = fill(connection, count);
            MessageConsumer consumer = connection.createSession(Session.AUTO_ACKNOWLEDGE).createConsumer(queue);
            for (int i = 0; i < count; i++) {
                assertNotNull(consumer.receive(TIMEOUT), "message " + i);
            }
            consumer.close();
            assertNull(connection.createSession(Session.AUTO_ACKNOWLEDGE).createConsumer(queue).receive(SHORT),
                    "every message acknowledged");
        }
        List<Integer> acks = counting.acks;
        assertEquals(count, acks.stream().mapToInt(Integer::intValue).sum(), "every message acknowledged once");
        assertTrue(acks.stream().allMatch(n -> n <= 50), "no batch over ackBatch: " + acks);
        assertTrue(acks.size() <= count / 5, acks.size() + " ACK requests for " + count + " messages: " + acks);
    }

    @Test
    void theLastReadyMessageIsAcknowledgedAsReceiveReturnsIt() throws Exception {
        CountingBrokerClient counting = new CountingBrokerClient();
        try (Connection connection = counting.factory(broker.nameServerAddress(), "?ackBatch=50" + NO_TIMER)
                .createConnection()) {
            connection.start();
            Queue queue = fill(connection, 1);
            MessageConsumer consumer = connection.createSession(Session.AUTO_ACKNOWLEDGE).createConsumer(queue);
            assertNotNull(consumer.receive(TIMEOUT));
            assertEquals(List.of(1), counting.acks, "sent before receive returned");
        }
    }

    @Test
    void timedBatchesGoOutOnTheConnectionsOneAckThread() throws Exception {
        CountingBrokerClient counting = new CountingBrokerClient();
        int count = 50;
        try (Connection connection = counting.factory(broker.nameServerAddress(), "?dupsOkBatch=1000&dupsOkMillis=1")
                .createConnection()) {
            connection.start();
            Queue queue = fill(connection, count);
            MessageConsumer consumer = connection.createSession(Session.DUPS_OK_ACKNOWLEDGE).createConsumer(queue);
            for (int i = 0; i < count; i++) {
                assertNotNull(consumer.receive(TIMEOUT), "message " + i);
            }
            await().atMost(Duration.ofMillis(TIMEOUT)).pollInterval(Duration.ofMillis(1)).untilAsserted(() -> assertEquals(
                    count, counting.acks.stream().mapToInt(Integer::intValue).sum(), "every batch sent by its timer"));
            Set<String> threads = new HashSet<>(counting.ackThreads);
            assertEquals(1, threads.size(), "one timer thread, not one per batch: " + threads);
            assertTrue(threads.iterator().next().startsWith("ramjet-timer-"), threads.toString());
        }
    }
}
