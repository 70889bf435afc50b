package io.ramjet.provider.jms;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.client.ClientOptions;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.time.Duration;
import java.util.Collections;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * AUTO acks pipelined and DUPS_OK acks batched keep the spec's guarantees: what was consumed is
 * acknowledged by the time the consumer, session or connection closes or the session recovers,
 * and a DUPS_OK batch smaller than its size is sent after a short time all the same.
 */
class AcknowledgeSpeedTest extends BrokerTestSupport {

    private static Queue fill(Session session, String name, int count) throws Exception {
        Queue queue = session.createQueue(unique(name));
        MessageProducer producer = session.createProducer(queue);
        for (int i = 0; i < count; i++) {
            producer.send(session.createTextMessage("m" + i));
        }
        return queue;
    }

    private static void receive(MessageConsumer consumer, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            assertNotNull(consumer.receive(TIMEOUT), "message " + i);
        }
    }

    /** Nothing is left: every message was acknowledged (none comes back redelivered). */
    private static void assertDrained(Connection connection, Queue queue) throws Exception {
        MessageConsumer next = connection.createSession(Session.AUTO_ACKNOWLEDGE).createConsumer(queue);
        Message left = next.receive(SHORT);
        assertNull(left, "nothing is redelivered after its ack was sent");
    }

    @Test
    void pipelinedAutoAcksAllLandBeforeTheConsumerCloses() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = fill(session, "auto", 500);
            MessageConsumer consumer = session.createConsumer(queue);
            receive(consumer, 500);
            consumer.close();
            assertDrained(connection, queue);
        }
    }

    @Test
    void pipelinedAutoAcksAllLandBeforeTheConnectionCloses() throws Exception {
        String name;
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = fill(session, "auto-close", 300);
            name = queue.getQueueName();
            receive(session.createConsumer(queue), 300);
        }
        try (Connection connection = connect()) {
            assertDrained(connection, connection.createSession(Session.AUTO_ACKNOWLEDGE).createQueue(name));
        }
    }

    @Test
    void aSmallDupsOkBatchIsFlushedWhenTheConsumerCloses() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.DUPS_OK_ACKNOWLEDGE);
            Queue queue = fill(session, "dups-close", 3);
            MessageConsumer consumer = session.createConsumer(queue);
            receive(consumer, 3);
            consumer.close();
            assertDrained(connection, queue);
        }
    }

    @Test
    void aSmallDupsOkBatchIsFlushedAfterAShortTime() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.DUPS_OK_ACKNOWLEDGE);
            Queue queue = fill(session, "dups-timer", 3);
            MessageConsumer consumer = session.createConsumer(queue);
            receive(consumer, 3);
            await("the batch sent").atMost(Duration.ofMillis(TIMEOUT)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> Collections.list(session.createBrowser(queue).getEnumeration()).isEmpty());
        }
    }

    @Test
    void dupsOkBatchesSpanManyMessagesAndListeners() throws Exception {
        int count = ClientOptions.DEFAULTS.dupsOkBatch() * 3 + 7;
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.DUPS_OK_ACKNOWLEDGE);
            Queue queue = fill(session, "dups-listener", count);
            CountDownLatch all = new CountDownLatch(count);
            MessageConsumer consumer = session.createConsumer(queue);
            consumer.setMessageListener(m -> all.countDown());
            assertTrue(all.await(TIMEOUT, TimeUnit.MILLISECONDS));
            session.close();
            assertDrained(connection, queue);
        }
    }
}
