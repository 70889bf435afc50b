package io.ramjet.provider.jms;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Destination;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The consumer's pull pipeline, observed at the client's calls to the broker: up to
 * {@code pullsInFlight} pulls out at once while a backlog drains (two by default; the broker
 * serves them in the order they came, so a producer's order is kept), and a prefetch bounded in
 * bytes ({@code prefetchBytes}) as well as in messages.
 */
class ConsumerPipelineTest extends BrokerTestSupport {

    private static final int KIB = 1024;

    private static Queue fill(Connection connection, int count, int bodyBytes) throws Exception {
        Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue(unique("pipeline"));
        MessageProducer producer = session.createProducer(queue);
        producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        byte[] body = new byte[bodyBytes];
        for (int i = 0; i < count; i++) {
            BytesMessage m = session.createBytesMessage();
            m.writeBytes(body);
            producer.send(m);
        }
        session.close();
        return queue;
    }

    /** Receives {@code count} messages; a failure says what the consumer held and what was out, to tell a lost pull from a stall. */
    private static int drain(Connection connection, Queue queue, int count, CountingBrokerClient counting)
            throws Exception {
        RamjetMessageConsumer consumer = (RamjetMessageConsumer) connection.createSession(Session.AUTO_ACKNOWLEDGE)
                .createConsumer(queue);
        for (int i = 0; i < count; i++) {
            int index = i;
            assertNotNull(consumer.receive(TIMEOUT), () -> "message " + index + "; prefetched "
                    + consumer.prefetchedCount() + ", " + counting.pulls.size() + " pulls sent, "
                    + counting.pullsOut() + " out now, " + counting.releasesOut() + " releases unanswered");
        }
        assertNull(consumer.receiveNoWait());
        return count;
    }

    /** A new queue holding {@code count} messages numbered 0, 1, ... in property {@code n}, sent in that order. */
    private static Queue sendNumbered(Connection connection, String prefix, int count) throws Exception {
        try (Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE)) {
            Queue queue = session.createQueue(unique(prefix));
            sendNumbered(session, queue, count);
            return queue;
        }
    }

    private static void sendNumbered(Session session, Destination destination, int count) throws Exception {
        MessageProducer producer = session.createProducer(destination);
        for (int i = 0; i < count; i++) {
            Message m = session.createMessage();
            m.setIntProperty("n", i);
            producer.send(m);
        }
    }

    private static void receiveInOrder(MessageConsumer consumer, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            Message m = consumer.receive(TIMEOUT);
            assertNotNull(m, "message " + i);
            assertEquals(i, m.getIntProperty("n"), "the producer's order");
        }
    }

    @Test
    void byDefaultTwoPullsAreOutAtOnceWhileABacklogDrains() throws Exception {
        // Answers 20 ms late: the consumer frees room while a pull is out, so a second one is
        // asked for; with a broker this close, the first one could be back before that every time.
        CountingBrokerClient counting = new CountingBrokerClient(20, 0);
        try (Connection connection = counting.factory(broker.nameServerAddress(), "")
                .createConnection()) {
            connection.start();
            drain(connection, fill(connection, 3_000, 100), 3_000, counting);
        }
        assertEquals(2, counting.mostPullsOut(), "pulls out at once, per " + counting.pulls.size() + " pulls");
    }

    @Test
    void withOnePullInFlightOnePullIsOut() throws Exception {
        CountingBrokerClient counting = new CountingBrokerClient();
        try (Connection connection = counting.factory(broker.nameServerAddress(), "?pullsInFlight=1")
                .createConnection()) {
            connection.start();
            drain(connection, fill(connection, 1_000, 100), 1_000, counting);
        }
        assertEquals(1, counting.mostPullsOut());
    }

    @Test
    void twoPullsInFlightKeepAProducersOrder() throws Exception {
        int count = 5_000;
        try (Connection connection = new CountingBrokerClient().factory(broker.nameServerAddress(), "?prefetch=64")
                .createConnection()) {
            connection.start();
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("ordered"));
            MessageConsumer consumer = session.createConsumer(queue);
            Session sending = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = sending.createProducer(queue);
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            for (int i = 0; i < count; i++) {
                BytesMessage m = sending.createBytesMessage();
                m.setIntProperty("n", i);
                producer.send(m);
            }
            receiveInOrder(consumer, count);
        }
    }

    @Test
    void aConsumerThatFellBehindGivesBackItsSurplusAndKeepsTheProducersOrder() throws Exception {
        // releases sent 200 ms late: a pull sent before they reach the broker would find the
        // messages after them first
        try (Connection connection = new CountingBrokerClient(0, 200).factory(broker.nameServerAddress(), "")
                .createConnection()) {
            connection.start();
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = sendNumbered(connection, "behind", 20);
            RamjetMessageConsumer consumer = (RamjetMessageConsumer) session.createConsumer(queue);
            await().atMost(Duration.ofMillis(TIMEOUT)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5))
                    .untilAsserted(() -> assertTrue(consumer.prefetchedCount() >= 2,
                            "prefetched " + consumer.prefetchedCount()));
            Thread.sleep(1_100); // the application falls a second behind: the consumer gives back its surplus
            receiveInOrder(consumer, 20);
        }
    }

    @Test
    void aGiveBackOfHundredsOfMessagesIsOneRequestAndKeepsTheProducersOrder() throws Exception {
        int count = 3_000;
        CountingBrokerClient counting = new CountingBrokerClient();
        try (Connection connection = counting.factory(broker.nameServerAddress(), "").createConnection()) {
            connection.start();
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = sendNumbered(connection, "give-back", count);
            RamjetMessageConsumer consumer = (RamjetMessageConsumer) session.createConsumer(queue);
            // an application keeping up: the consumer's window grows until hundreds are prefetched
            int taken = 0;
            while (consumer.prefetchedCount() < 200 && taken < count / 2) {
                Message m = consumer.receive(TIMEOUT);
                assertNotNull(m, "message " + taken);
                assertEquals(taken++, m.getIntProperty("n"), "the producer's order");
            }
            int surplus = consumer.prefetchedCount() - 1;
            assertTrue(surplus >= 199, "prefetched " + (surplus + 1) + " after " + taken + " taken");
            assertTrue(counting.releases.isEmpty(), "nothing given back while the application keeps up");
            Thread.sleep(1_100); // the application falls a second behind: the consumer gives back its surplus
            for (int i = taken; i < count; i++) {
                Message m = consumer.receive(TIMEOUT);
                assertNotNull(m, "message " + i);
                assertEquals(i, m.getIntProperty("n"), "the producer's order");
            }
        }
        assertTrue(counting.releases.get(0) >= 199, "the first give-back named " + counting.releases.get(0)
                + " messages; releases " + counting.releases);
    }

    @Test
    void aPullWhoseAnswerIsLostLetsNoLaterMessageOvertakeItsMessages() throws Exception {
        // the broker handed the first pull with messages its messages; the consumer saw it time out
        try (Connection connection = new CountingBrokerClient().losePullAnswers(1)
                .factory(broker.nameServerAddress(), "").createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(sendNumbered(connection, "lost-pull", 50));
            connection.start();
            receiveInOrder(consumer, 50);
        }
    }

    @Test
    void aListenersMessageStaysItsOwnWhenALostPullAnswerDetachesItsConsumer() throws Exception {
        // the consumer gives up its attachment while the listener still handles message 0: given
        // back uncounted, message 0 would come again without JMSRedelivered
        CountingBrokerClient counting = new CountingBrokerClient();
        int count = 20;
        List<String> received = new CopyOnWriteArrayList<>();
        CountDownLatch all = new CountDownLatch(count);
        try (Connection connection = counting.factory(broker.nameServerAddress(), "?prefetch=1").createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(sendNumbered(connection, "in-hand", count));
            consumer.setMessageListener(m -> {
                try {
                    int n = m.getIntProperty("n");
                    received.add(n + (m.getJMSRedelivered() ? "r" : ""));
                    if (n == 0 && received.size() == 1) {
                        counting.losePullAnswers(1);
                        // not longer: the feed may act on the lost answer only once this returns
                        try {
                            counting.firstConsumerClosed().get(TIMEOUT / 2, TimeUnit.MILLISECONDS);
                        } catch (TimeoutException notYet) {
                            // the detach comes after this returns
                        }
                    }
                    all.countDown();
                } catch (JMSException | InterruptedException | ExecutionException e) {
                    throw new IllegalStateException(e);
                }
            });
            connection.start();
            assertTrue(all.await(3 * TIMEOUT, TimeUnit.MILLISECONDS), "received " + received + ", pulls " + counting.pulls
                    + ", out " + counting.pullsOut() + ", closed " + counting.consumersClosed());
            assertTrue(counting.consumersClosed() > 0, "the lost pull answer did not detach the consumer");
        }
        assertEquals(1, received.stream().filter(r -> r.startsWith("0")).count(), "message 0 came again: " + received);
    }

    @Test
    void anAutoAckWithoutAnswerGivesItsMessageBackCountedWhenALostPullAnswerDetachesTheConsumer() throws Exception {
        // message 0's ack gets no answer (as under a stalled SYNC write), then a lost pull answer
        // detaches the consumer: the broker still holds message 0 as delivered, and given back as
        // unseen it would come again without JMSRedelivered
        CountingBrokerClient counting = new CountingBrokerClient();
        List<String> received = receiveAllWhileDetached(counting, Session.AUTO_ACKNOWLEDGE, "lost-ack", () -> {
            counting.loseAcks(1);
            counting.losePullAnswers(1);
        });
        assertTrue(counting.consumersClosed() > 0, "the lost pull answer did not detach the consumer");
        assertEquals(List.of(), unflaggedRepeats(received), "received " + received + ", releases " + counting.releases
                + ", acks " + counting.acks);
    }

    @Test
    void aClientAcknowledgeStillOnItsWayKeepsItsMessagesWhenALostPullAnswerDetachesTheConsumer() throws Exception {
        // acknowledge() waits for its answer while a lost pull answer detaches the consumer: its
        // messages are the session's (seen), not unseen ones to give back uncounted. The lost
        // answer is that of the pull after message 0 or after message 1 (prefetch 1), so the acks
        // of those two are the ones on their way during the detach.
        CountingBrokerClient counting = new CountingBrokerClient();
        List<String> received = receiveAllWhileDetached(counting, Session.CLIENT_ACKNOWLEDGE, "slow-ack", () -> {
            counting.delayAcks(TIMEOUT / 2, 2);
            counting.losePullAnswers(1);
        });
        assertTrue(counting.consumersClosed() > 0, "the lost pull answer did not detach the consumer");
        assertEquals(List.of(), unflaggedRepeats(received), "received " + received);
    }

    /**
     * Receives 10 numbered messages with prefetch 1, acknowledging each (CLIENT) or by the mode;
     * {@code afterFirst} runs once message 0 is received and before its acknowledgement. Returns
     * what came, "n" or "nr" (redelivered), until 1 s passes without a message.
     */
    private List<String> receiveAllWhileDetached(CountingBrokerClient counting, int mode, String name,
                                                 Runnable afterFirst) throws Exception {
        List<String> received = new ArrayList<>();
        try (Connection connection = counting.factory(broker.nameServerAddress(), "?prefetch=1").createConnection()) {
            Session session = connection.createSession(mode);
            MessageConsumer consumer = session.createConsumer(sendNumbered(connection, name, 10));
            connection.start();
            Message m;
            while ((m = consumer.receive(received.isEmpty() ? TIMEOUT : 1_000)) != null) {
                received.add(m.getIntProperty("n") + (m.getJMSRedelivered() ? "r" : ""));
                if (received.size() == 1) {
                    afterFirst.run();
                }
                if (mode == Session.CLIENT_ACKNOWLEDGE) {
                    try {
                        m.acknowledge();
                    } catch (JMSException e) {
                        // the delayed ack may find its attachment gone: the message comes again, counted
                    }
                }
            }
        }
        return received;
    }

    /** The numbers received again without JMSRedelivered. */
    private static List<String> unflaggedRepeats(List<String> received) {
        Set<String> seen = new HashSet<>();
        return received.stream().filter(r -> !r.endsWith("r") && !seen.add(r)).toList();
    }

    @Test
    void aTopicSubscriberWhosePullAnswerIsLostKeepsItsSubscription() throws Exception {
        // a detach would end the non-durable subscription and every message in it: the lost
        // pull's messages stay behind, the later ones come
        try (Connection connection = new CountingBrokerClient().losePullAnswers(1)
                .factory(broker.nameServerAddress(), "").createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic(unique("lost-pull"));
            MessageConsumer subscriber = session.createConsumer(topic);
            sendNumbered(session, topic, 50);
            connection.start();
            Message first = subscriber.receive(TIMEOUT);
            assertNotNull(first, "a message after the lost pull's");
            for (int i = first.getIntProperty("n") + 1; i < 50; i++) {
                Message m = subscriber.receive(TIMEOUT);
                assertNotNull(m, "message " + i);
                assertEquals(i, m.getIntProperty("n"));
            }
        }
    }

    @Test
    void theByteCapHoldsWith64KibBodies() throws Exception {
        CountingBrokerClient counting = new CountingBrokerClient();
        int cap = 1024 * KIB;
        try (Connection connection = counting.factory(broker.nameServerAddress(), "?prefetchBytes=" + cap)
                .createConnection()) {
            connection.start();
            Queue queue = fill(connection, 60, 64 * KIB);
            RamjetMessageConsumer consumer = (RamjetMessageConsumer) connection
                    .createSession(Session.AUTO_ACKNOWLEDGE).createConsumer(queue);
            for (int i = 0; i < 60; i++) {
                assertTrue(consumer.prefetchedBytes() <= cap, consumer.prefetchedBytes() + " bytes prefetched");
                assertNotNull(consumer.receive(TIMEOUT), "message " + i);
            }
        }
        int largest = Collections.max(counting.pulls);
        assertTrue(largest > 1 && largest <= cap / (64 * KIB), "a pull asked for " + largest + " messages");
    }

    /**
     * Receives {@code count} messages from a consumer whose messages wait for it and checks that
     * its first two pulls asked for all of them: a window that started at one would have made it
     * ask for 8 (the first pull's guess), then 1, 2, 4... , a round trip per doubling.
     */
    private static void receiveInTwoPulls(MessageConsumer consumer, int count, CountingBrokerClient counting)
            throws Exception {
        for (int i = 0; i < count; i++) {
            assertNotNull(consumer.receive(TIMEOUT), "message " + i);
        }
        List<Integer> pulls = counting.pulls;
        assertTrue(pulls.size() >= 2 && pulls.get(0) + pulls.get(1) >= count, "pulls asking for " + pulls);
    }

    @Test
    void aTopicSubscribersBacklogComesInTwoPulls() throws Exception {
        // its window starts at the prefetch: nobody else consumes its subscription
        int count = 300;
        CountingBrokerClient counting = new CountingBrokerClient();
        try (Connection connection = counting.factory(broker.nameServerAddress(), "").createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic(unique("sole-topic"));
            MessageConsumer consumer = session.createConsumer(topic);
            sendNumbered(connection.createSession(Session.AUTO_ACKNOWLEDGE), topic, count);
            connection.start();
            receiveInTwoPulls(consumer, count, counting);
        }
    }

    @Test
    void aDurableSubscribersBacklogComesInTwoPulls() throws Exception {
        int count = 300;
        CountingBrokerClient counting = new CountingBrokerClient();
        try (Connection connection = counting.factory(broker.nameServerAddress(), "").createConnection()) {
            connection.setClientID(unique("sole-durable"));
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic(unique("sole-durable"));
            session.createDurableConsumer(topic, "sole").close();
            sendNumbered(session, topic, count);
            MessageConsumer consumer = session.createDurableConsumer(topic, "sole");
            counting.pulls.clear();
            connection.start();
            receiveInTwoPulls(consumer, count, counting);
            consumer.close();
            session.unsubscribe("sole");
        }
    }
}
