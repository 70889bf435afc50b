package io.ramjet.reliability;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Limits a user runs into without any fault: an over-limit message, a backlog of large ones,
 * long destination names, a dead-letter queue of a long name, a broker that does not create
 * destinations, and temporary queues created and deleted in a loop. No kills.
 */
class LimitsTest {

    private static final int MAX_DELIVERIES = 3;
    private static final String DLQ_PREFIX = "DLQ.";

    @RegisterExtension
    static final Brokers brokers = Brokers.perClass();

    private static BrokerProcess broker;
    private static ConnectionFactory factory;
    private static Connection connection;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = brokers.start("limits", Brokers.properties("maxDeliveries", Integer.toString(MAX_DELIVERIES),
                "deadLetterPrefix", DLQ_PREFIX));
        factory = Jms.factory(broker);
        connection = factory.createConnection();
        connection.start();
    }

    @AfterAll
    static void closeConnection() {
        Jms.closeQuietly(connection);
    }

    @Test
    void anOverLimitMessageFailsThatSendAndTheConnectionKeepsWorking() throws Exception {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = session.createConsumer(session.createQueue("rel.limit.small"));
        MessageProducer producer = session.createProducer(null);
        // a body of any size travels as a large message, in chunks; a message's header section
        // (its properties) still has to fit one frame
        BytesMessage big = session.createBytesMessage();
        big.setStringProperty("big", "x".repeat(17 << 20));
        JMSException refused = null;
        long start = System.nanoTime();
        try {
            producer.send(session.createQueue("rel.limit.big"), big);
        } catch (JMSException e) {
            refused = e;
        }
        long sendMs = (System.nanoTime() - start) / 1_000_000;
        String error = refused == null ? "none" : refused.getClass().getSimpleName() + ": " + refused.getMessage();
        boolean producerWorks;
        Message after = null;
        try {
            producer.send(session.createQueue("rel.limit.small"), Jms.message(session, "after-big"));
            producerWorks = true;
            after = consumer.receive(10_000);
        } catch (JMSException e) {
            producerWorks = false;
        }
        System.out.println("RELIABILITY LimitsTest.overLimitMessage: messages=1 kills=0 lost=0 duplicates=0"
                + " sendMs=" + sendMs + " producerWorksAfter=" + producerWorks + " consumerWorksAfter="
                + (after != null) + " error=\"" + error + "\"");
        JMSException e = refused;
        boolean sent = producerWorks;
        Message received = after;
        assertAll(
                () -> assertNotNull(e, "a send with 17 MiB of properties returned"),
                () -> assertTrue(e == null || namesALimit(e.getMessage()), "the error does not name the limit: " + error),
                () -> assertTrue(sent, "the producer failed after the refused send"),
                () -> assertNotNull(received, "the consumer on the same connection got nothing after the refused send"));
    }

    private static boolean namesALimit(String text) {
        return text != null && text.matches("(?is).*(limit|maximum|max|too large|exceeds).*") && text.matches("(?s).*\\d.*");
    }

    @Test
    void aBacklogOfFortyOneMebibyteMessagesIsFullyConsumable() throws Exception {
        String queue = "rel.limit.backlog";
        Tally tally = new Tally();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer producer = session.createProducer(session.createQueue(queue));
        producer.setDeliveryMode(DeliveryMode.PERSISTENT);
        for (int i = 0; i < 40; i++) {
            BytesMessage m = session.createBytesMessage();
            m.writeBytes(new byte[1 << 20]);
            m.setStringProperty(Jms.ID, "big-" + i);
            producer.send(m);
            tally.sent("big-" + i);
        }
        long start = System.nanoTime();
        int received = Drain.queue(factory, queue, tally, Duration.ofSeconds(10), Duration.ofSeconds(30));
        tally.summary("LimitsTest.backlogOf1MiB", 0, "received=" + received + " ms="
                + (System.nanoTime() - start) / 1_000_000);
        assertEquals(0, tally.lost(), "1 MiB messages never consumed");
    }

    static Stream<Arguments> names() {
        return Stream.of(
                Arguments.of("300 ASCII letters", "q".repeat(300)),
                Arguments.of("1,024 ASCII letters", "k".repeat(1_024)),
                Arguments.of("200 é", "é".repeat(200)),
                Arguments.of("90 dots and an x", ".".repeat(90) + "x"));
    }

    @ParameterizedTest(name = "queue named with {0}")
    @MethodSource("names")
    void aLongQueueNameWorksOrIsRefused(String what, String name) throws Exception {
        assertNotEquals(Outcome.GONE, endToEnd("queue", what, name, false));
    }

    @ParameterizedTest(name = "topic named with {0}")
    @MethodSource("names")
    void aLongTopicNameWorksOrIsRefused(String what, String name) throws Exception {
        assertNotEquals(Outcome.GONE, endToEnd("topic", what, name, true));
    }

    private enum Outcome { WORKS, REFUSED, GONE }

    /** Sends one message to a destination of that name and receives it, or sees it refused. */
    private static Outcome endToEnd(String kind, String what, String name, boolean topic) throws JMSException {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        String step = "create";
        Outcome outcome;
        String detail = "";
        try {
            Destination d = topic ? session.createTopic(name) : session.createQueue(name);
            step = "createConsumer";
            MessageConsumer consumer = session.createConsumer(d);
            step = "send";
            session.createProducer(d).send(Jms.message(session, "named"));
            step = "receive";
            Message m = consumer.receive(3_000);
            outcome = m != null ? Outcome.WORKS : Outcome.GONE;
        } catch (InvalidDestinationException e) {
            outcome = Outcome.REFUSED;
            detail = " error=\"" + e.getMessage() + "\"";
        } finally {
            session.close();
        }
        System.out.println("RELIABILITY LimitsTest.name[" + kind + ", " + what + "]: messages=1 kills=0 lost="
                + (outcome == Outcome.GONE ? 1 : 0) + " duplicates=0 outcome=" + outcome + " at=" + step + detail);
        return outcome;
    }

    @Test
    void theDeadLetterQueueOfALongNameHoldsTheMessageAfterMaxDeliveries() throws Exception {
        String name = "d".repeat(1_024 - DLQ_PREFIX.length()); // its DLQ's name is as long as a name may be
        Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
        String step = "create";
        MessageConsumer consumer;
        try {
            consumer = session.createConsumer(session.createQueue(name));
            step = "send";
            session.createProducer(session.createQueue(name)).send(Jms.message(session, "dead"));
            session.commit();
        } catch (InvalidDestinationException e) {
            System.out.println("RELIABILITY LimitsTest.deadLetterOfLongName: messages=0 kills=0 lost=0 duplicates=0"
                    + " outcome=REFUSED at=" + step + " error=\"" + e.getMessage() + "\"");
            session.close();
            return;
        }
        int deliveries = 0;
        for (int i = 0; i < MAX_DELIVERIES; i++) {
            Message m = consumer.receive(5_000);
            if (m == null) {
                break;
            }
            deliveries++;
            session.rollback();
        }
        Message again = consumer.receive(2_000);
        session.commit();
        Message dead;
        String dlqError = "";
        try {
            MessageConsumer dlq = session.createConsumer(session.createQueue(DLQ_PREFIX + name));
            dead = dlq.receive(10_000);
            session.commit();
        } catch (JMSException e) {
            dead = null;
            dlqError = " dlqError=\"" + e + "\"";
        }
        session.close();
        System.out.println("RELIABILITY LimitsTest.deadLetterOfLongName: messages=1 kills=0 lost=" + (dead == null ? 1 : 0)
                + " duplicates=0 deliveries=" + deliveries + " deliveredAfterMax=" + (again != null)
                + " inDeadLetterQueue=" + (dead != null) + dlqError);
        int delivered = deliveries;
        Message inDlq = dead;
        assertAll(
                () -> assertEquals(MAX_DELIVERIES, delivered, "deliveries before dead-lettering"),
                () -> assertNull(again, "delivered again past maxDeliveries"),
                () -> assertNotNull(inDlq, "not in " + DLQ_PREFIX + "<name> after " + MAX_DELIVERIES + " rollbacks"));
    }

    @Test
    void withoutAutoCreationASendToAnUnknownDestinationFails() throws Exception {
        BrokerProcess strict = brokers.start("limits-no-autocreate",
                Brokers.properties("autoCreateDestinations", "false"));
        String step = "create";
        JMSException failure = null;
        try (Connection c = Jms.factory(strict).createConnection()) {
            Session session = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try {
                Destination unknown = session.createQueue("rel.unknown");
                step = "createProducer";
                MessageProducer producer = session.createProducer(unknown);
                step = "send";
                producer.send(Jms.message(session, "unknown"));
                step = "returned";
            } catch (JMSException e) {
                failure = e;
            }
        } finally {
            strict.close();
        }
        String error = failure == null ? "none" : failure.getClass().getSimpleName() + ": " + failure.getMessage();
        System.out.println("RELIABILITY LimitsTest.autoCreateDestinationsFalse: messages=1 kills=0 lost=0 duplicates=0"
                + " at=" + step + " error=\"" + error + "\"");
        assertTrue(failure instanceof InvalidDestinationException,
                "a send to an unknown destination with autoCreateDestinations=false: " + step + ", " + error);
    }

    @Test
    void temporaryQueuesLeaveNoDiskBehind() throws Exception {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        cycle(session);
        long before = TempDirs.bytesUnder(broker.dataDir());
        long creatingNanos = 0;
        int cycles = 100;
        for (int i = 0; i < cycles; i++) {
            creatingNanos += cycle(session);
        }
        long tolerance = 1 << 20;
        boolean back = Await.until(Duration.ofSeconds(15), () -> bytes() <= before + tolerance);
        long after = bytes();
        System.out.println("RELIABILITY LimitsTest.temporaryQueues: messages=" + cycles + " kills=0 lost=0 duplicates=0"
                + " msPerCreation=" + String.format("%.1f", creatingNanos / 1e6 / cycles) + " diskBefore=" + before
                + " diskAfter=" + after + " leftBehindPerQueue=" + Math.max(0, (after - before) / cycles));
        assertTrue(back, "disk use after " + cycles + " temporary queues: " + after + " bytes, before " + before);
    }

    private static long bytes() {
        try {
            return TempDirs.bytesUnder(broker.dataDir());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Creates, uses and deletes one temporary queue; returns the nanoseconds creation took. */
    private static long cycle(Session session) throws JMSException {
        long start = System.nanoTime();
        TemporaryQueue queue = session.createTemporaryQueue();
        long created = System.nanoTime() - start;
        MessageConsumer consumer = session.createConsumer(queue);
        session.createProducer(queue).send(Jms.message(session, "temp"));
        assertNotNull(consumer.receive(5_000), "a temporary queue lost its message");
        consumer.close();
        queue.delete();
        return created;
    }
}
