package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Destination;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A consumer whose application is not taking messages (no thread in receive, no listener) holds
 * none: what it prefetched goes back to the broker uncounted within a bound, so another consumer
 * of the queue or shared subscription that calls receive gets it as a first delivery.
 */
class IdleConsumerTest extends BrokerTestSupport {

    /**
     * The bound: the idle time, a pull's hold (what a pull out may still bring; 300 ms by
     * default) and a release's round trip, with room for a loaded machine.
     */
    private static final long GIVEN_BACK_WITHIN_MILLIS = RamjetMessageConsumer.IDLE_MILLIS + 300 + 700;

    enum Kind { QUEUE, SHARED, SHARED_DURABLE }

    /** A consumer of the destination's queue, or of its shared subscription "sub". */
    private static MessageConsumer consumer(Session session, Destination destination, Kind kind) throws Exception {
        return switch (kind) {
            case QUEUE -> session.createConsumer(destination);
            case SHARED -> session.createSharedConsumer((Topic) destination, "sub");
            case SHARED_DURABLE -> session.createSharedDurableConsumer((Topic) destination, "sub");
        };
    }

    private static Destination destination(Session session, Kind kind, String name) throws Exception {
        return kind == Kind.QUEUE ? session.createQueue(unique(name)) : session.createTopic(unique(name));
    }

    private static void send(Session session, Destination destination, int count) throws Exception {
        MessageProducer producer = session.createProducer(destination);
        for (int i = 0; i < count; i++) {
            Message m = session.createMessage();
            m.setIntProperty("n", i);
            producer.send(m);
        }
    }

    private static void await(BooleanSupplier condition, String what) {
        Awaitility.await(what).atMost(Duration.ofMillis(TIMEOUT)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(5)).until(condition::getAsBoolean);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aMessagePrefetchedByAConsumerThatIsNotReceivingGoesBackUncountedWithinTheBound(Kind kind) throws Exception {
        CountingBrokerClient counting = new CountingBrokerClient();
        try (Connection idleConnection = counting.factory(broker.nameServerAddress(), "").createConnection();
             Connection receiving = connect()) {
            idleConnection.start();
            Session idleSession = idleConnection.createSession(Session.AUTO_ACKNOWLEDGE);
            Destination destination = destination(idleSession, kind, "idle");
            MessageConsumer idle = consumer(idleSession, destination, kind);
            long sent = System.nanoTime();
            send(idleSession, destination, 1); // the idle consumer's pull, held at the broker, takes it
            Session session = receiving.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer other = consumer(session, destination, kind);
            Message m = other.receive(TIMEOUT);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
            assertNotNull(m, "the message stayed with the consumer that is not receiving");
            assertTrue(tookMillis <= GIVEN_BACK_WITHIN_MILLIS, "given back after " + tookMillis + " ms");
            assertFalse(m.getJMSRedelivered());
            assertEquals(1, m.getIntProperty("JMSXDeliveryCount"));
            assertEquals(List.of(1), counting.releases, "the idle consumer gave back the one message it took");
            other.close();
            idle.close();
            if (kind == Kind.SHARED_DURABLE) {
                session.unsubscribe("sub");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aConsumerThatStopsReceivingGivesBackEverythingItPrefetchedWhateverItsWindow(Kind kind) throws Exception {
        int count = 300, takenFirst = 30;
        try (Connection first = connect(); Connection second = connect()) {
            Session session = first.createSession(Session.AUTO_ACKNOWLEDGE);
            Destination destination = destination(session, kind, "stopped");
            RamjetMessageConsumer stops = (RamjetMessageConsumer) consumer(session, destination, kind);
            send(session, destination, count);
            for (int i = 0; i < takenFirst; i++) { // taken promptly: the window grows (how far depends on the machine)
                assertNotNull(stops.receive(TIMEOUT), "message " + i);
            }
            Session otherSession = second.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer other = consumer(otherSession, destination, kind);
            Set<Integer> rest = new HashSet<>();
            for (int i = takenFirst; i < count; i++) {
                Message m = other.receive(TIMEOUT);
                assertNotNull(m, "message " + i + " of " + count + "; the stopped consumer holds "
                        + stops.prefetchedCount());
                assertFalse(m.getJMSRedelivered(), "message " + m.getIntProperty("n"));
                rest.add(m.getIntProperty("n"));
            }
            assertEquals(count - takenFirst, rest.size());
            assertEquals(0, stops.prefetchedCount());
            other.close();
            stops.close();
            if (kind == Kind.SHARED_DURABLE) {
                otherSession.unsubscribe("sub");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void receiveNoWaitOfAConsumerThatStoppedTakingMessagesGetsOneWaitingAtTheBroker(Kind kind) throws Exception {
        CountingBrokerClient counting = new CountingBrokerClient();
        try (Connection connection = counting.factory(broker.nameServerAddress(), "").createConnection()) {
            connection.start();
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Destination destination = destination(session, kind, "nowait");
            RamjetMessageConsumer consumer = (RamjetMessageConsumer) consumer(session, destination, kind);
            await(() -> !consumer.takingMessages() && counting.pullsOut() == 0, "the consumer stops pulling");
            int pulls = counting.pulls.size();
            send(session, destination, 1);
            assertEquals(pulls, counting.pulls.size(), "no pull while the application takes nothing");
            Message m = consumer.receiveNoWait();
            assertNotNull(m, "the message waiting at the broker is immediately available");
            assertFalse(m.getJMSRedelivered());
            consumer.close();
            if (kind == Kind.SHARED_DURABLE) {
                session.unsubscribe("sub");
            }
        }
    }
}
