package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.client.ClientException;
import io.ramjet.provider.client.ConnectionInfo;
import io.ramjet.provider.client.RemotingRamjetClient;
import io.ramjet.provider.message.SerializationAllowList;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.Enumeration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Large messages keep every guarantee of a small one: bodies above {@code largeMessageSize}
 * (64 KiB here, so a few MiB make dozens of chunks) travel in chunks, and selectors, browsing,
 * transactions, redelivery to the dead-letter queue, expiry and delivery delay treat them as
 * any message (retention: LargeMessageRetentionTest). One embedded broker with 4 MiB segments and two deliveries before the
 * dead-letter queue.
 */
class LargeMessagesTest {

    /** Chunks travel in pooled buffers: every one released, whatever way its request ends. */
    @RegisterExtension
    static final NettyLeakCheck LEAKS = new NettyLeakCheck();

    private static final int CHUNK = 64 * 1024;
    private static final long TIMEOUT = 5_000;
    private static EmbeddedBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedBroker.start(c -> {
            BrokerConfigBuilder b = c.toBuilder().maxDeliveries(2);
            b.store().segmentSize(4 << 20);
            return b.build();
        });
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static Connection connect(String options) throws JMSException {
        Connection connection = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress()
                + "?largeMessageSize=" + CHUNK + options).createConnection();
        connection.start();
        return connection;
    }

    private static byte[] body(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static byte[] read(BytesMessage m) throws JMSException {
        byte[] all = new byte[(int) m.getBodyLength()];
        int at = 0;
        byte[] buffer = new byte[10_000];
        for (int n = m.readBytes(buffer); n > 0; n = m.readBytes(buffer)) {
            System.arraycopy(buffer, 0, all, at, n);
            at += n;
        }
        assertEquals(all.length, at, "bytes read");
        return all;
    }

    private static BytesMessage bytes(Session session, byte[] body) throws JMSException {
        BytesMessage m = session.createBytesMessage();
        m.writeBytes(body);
        return m;
    }

    @Test
    void aBytesBodyOverTheSizeComesBackByteForByte() throws Exception {
        try (Connection connection = connect("")) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue("large.plain");
            byte[] body = body(3 << 20, 1);
            session.createProducer(queue).send(bytes(session, body));
            BytesMessage got = (BytesMessage) session.createConsumer(queue).receive(TIMEOUT);
            assertEquals(body.length, got.getBodyLength());
            assertArrayEquals(body, read(got));
            got.reset();
            assertEquals(body[0], got.readByte(), "read again from the start after reset()");
        }
    }

    @Test
    void aStreamedBodyIsSentAndSavedToAStream() throws Exception {
        try (Connection connection = connect("")) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue("large.streamed");
            byte[] body = body(1 << 20, 2);
            BytesMessage m = session.createBytesMessage();
            m.setObjectProperty("JMS_Ramjet_InputStream", new ByteArrayInputStream(body));
            session.createProducer(queue).send(m);
            Message got = session.createConsumer(queue).receive(TIMEOUT);
            ByteArrayOutputStream saved = new ByteArrayOutputStream();
            got.setObjectProperty("JMS_Ramjet_SaveStream", saved);
            assertArrayEquals(body, saved.toByteArray());
            assertNull(got.getObjectProperty("JMS_Ramjet_InputStream"), "the stream never travels as a property");
        }
    }

    @Test
    void aReceivedLargeMessageIsForwardedWhole() throws Exception {
        try (Connection connection = connect("")) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue in = session.createQueue("large.forward.in");
            Queue out = session.createQueue("large.forward.out");
            byte[] body = body(2 << 20, 10);
            session.createProducer(in).send(bytes(session, body));
            Message got = session.createConsumer(in).receive(TIMEOUT);
            session.createProducer(out).send(got);
            BytesMessage forwarded = (BytesMessage) session.createConsumer(out).receive(TIMEOUT);
            byte[] whole = new byte[body.length];
            assertEquals(body.length, forwarded.readBytes(whole), "readBytes fills the array");
            assertArrayEquals(body, whole);
        }
    }

    @Test
    void aStreamPropertyOnAnotherBodyTypeIsRefused() throws Exception {
        try (Connection connection = connect("")) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            TextMessage text = session.createTextMessage("x");
            assertThrows(MessageFormatException.class,
                    () -> text.setObjectProperty("JMS_Ramjet_InputStream", new ByteArrayInputStream(new byte[1])));
            BytesMessage m = session.createBytesMessage();
            assertThrows(MessageFormatException.class, () -> m.setObjectProperty("JMS_Ramjet_InputStream", "text"));
        }
    }

    @Test
    void aCompressedBodyIsStoredSmallerAndReadAsSent() throws Exception {
        try (Connection connection = connect("&compressLargeMessages=true")) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue("large.compressed");
            byte[] body = new byte[8 << 20];
            for (int i = 0; i < body.length; i++) {
                body[i] = (byte) (i % 97);
            }
            long before = broker.broker().store().maxPhysicalOffset();
            session.createProducer(queue).send(bytes(session, body));
            long stored = broker.broker().store().maxPhysicalOffset() - before;
            assertTrue(stored < body.length / 10, "stored " + stored + " bytes for a body of " + body.length);
            BytesMessage got = (BytesMessage) session.createConsumer(queue).receive(TIMEOUT);
            assertEquals(body.length, got.getBodyLength());
            assertArrayEquals(body, read(got));
        }
    }

    @Test
    void aLargeTextMessageComesBackWhole() throws Exception {
        try (Connection connection = connect("")) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue("large.text");
            String text = "abcdefghij".repeat(200_000);
            session.createProducer(queue).send(session.createTextMessage(text));
            assertEquals(text, ((TextMessage) session.createConsumer(queue).receive(TIMEOUT)).getText());
        }
    }

    @Test
    void aSelectorPicksLargeMessagesByTheirProperties() throws Exception {
        try (Connection connection = connect("")) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue("large.selected");
            MessageProducer producer = session.createProducer(queue);
            for (String colour : List.of("red", "blue", "red")) {
                BytesMessage m = bytes(session, body(200_000, colour.hashCode()));
                m.setStringProperty("colour", colour);
                producer.send(m);
            }
            MessageConsumer blue = session.createConsumer(queue, "colour = 'blue'");
            BytesMessage got = (BytesMessage) blue.receive(TIMEOUT);
            assertArrayEquals(body(200_000, "blue".hashCode()), read(got));
            assertNull(blue.receive(300), "only the blue one");
            MessageConsumer rest = session.createConsumer(queue);
            assertNotNull(rest.receive(TIMEOUT));
            assertNotNull(rest.receive(TIMEOUT));
        }
    }

    @Test
    void aBrowserShowsALargeMessageAndItsBodyWithoutTakingIt() throws Exception {
        try (Connection connection = connect("")) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue("large.browsed");
            byte[] body = body(500_000, 3);
            session.createProducer(queue).send(bytes(session, body));
            try (QueueBrowser browser = session.createBrowser(queue)) {
                Enumeration<?> e = browser.getEnumeration();
                assertTrue(e.hasMoreElements());
                assertArrayEquals(body, read((BytesMessage) e.nextElement()));
            }
            assertArrayEquals(body, read((BytesMessage) session.createConsumer(queue).receive(TIMEOUT)));
        }
    }

    @Test
    void aTransactedSendIsInvisibleUntilCommitAndATransactedReceiveRollsBack() throws Exception {
        try (Connection connection = connect("")) {
            Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
            Session plain = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = tx.createQueue("large.transacted");
            byte[] body = body(1 << 20, 4);
            tx.createProducer(queue).send(bytes(tx, body));
            MessageConsumer watcher = plain.createConsumer(queue);
            assertNull(watcher.receive(300), "not visible before commit");
            tx.commit();
            assertArrayEquals(body, read((BytesMessage) watcher.receive(TIMEOUT)));

            tx.createProducer(queue).send(bytes(tx, body));
            tx.commit();
            watcher.close();
            MessageConsumer consumer = tx.createConsumer(queue);
            assertArrayEquals(body, read((BytesMessage) consumer.receive(TIMEOUT)));
            tx.rollback();
            BytesMessage again = (BytesMessage) consumer.receive(TIMEOUT);
            assertTrue(again.getJMSRedelivered());
            assertArrayEquals(body, read(again));
            tx.commit();
            assertNull(consumer.receive(300), "consumed by the commit");
        }
    }

    @Test
    void aLargeMessageRolledBackTooOftenGoesWholeToTheDeadLetterQueue() throws Exception {
        try (Connection connection = connect("")) {
            Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
            Queue queue = tx.createQueue("large.dead");
            byte[] body = body(300_000, 5);
            tx.createProducer(queue).send(bytes(tx, body));
            tx.commit();
            MessageConsumer consumer = tx.createConsumer(queue);
            for (int i = 0; i < 2; i++) {
                assertNotNull(consumer.receive(TIMEOUT), "delivery " + (i + 1));
                tx.rollback();
            }
            assertNull(consumer.receive(300), "gone to the dead-letter queue");
            Message dead = tx.createConsumer(tx.createQueue("DLQ.large.dead")).receive(TIMEOUT);
            assertArrayEquals(body, read((BytesMessage) dead));
            tx.commit();
        }
    }

    @Test
    void anExpiredLargeMessageIsNeverDeliveredAndADelayedOneComesWholeWhenDue() throws Exception {
        try (Connection connection = connect("")) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue expiring = session.createQueue("large.expiring");
            MessageProducer producer = session.createProducer(expiring);
            producer.setTimeToLive(200);
            producer.send(bytes(session, body(300_000, 6)));
            TimeUnit.MILLISECONDS.sleep(400); // past the time to live: the condition is the clock
            assertNull(session.createConsumer(expiring).receive(300), "expired");

            Queue delayed = session.createQueue("large.delayed");
            byte[] body = body(300_000, 7);
            MessageProducer later = session.createProducer(delayed);
            later.setDeliveryDelay(1_000);
            long sent = System.currentTimeMillis();
            later.send(bytes(session, body));
            BytesMessage got = (BytesMessage) session.createConsumer(delayed).receive(TIMEOUT);
            assertTrue(System.currentTimeMillis() - sent >= 1_000, "not before its delivery time");
            assertArrayEquals(body, read(got));
        }
    }

    @Test
    void aChunkIsReadOnlyWithItsUploadId() throws Exception {
        try (Connection connection = connect("");
             RemotingRamjetClient client = new RemotingRamjetClient(new ConnectionInfo("large-probe",
                     List.of(broker.nameServerAddress()), null, null, Duration.ofSeconds(5),
                     SerializationAllowList.DEFAULT))) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue("large.guarded");
            session.createProducer(queue).send(bytes(session, body(200_000, 9)));
            ExecutionException refused = assertThrows(ExecutionException.class, () -> client.readChunk(
                    broker.brokerAddress(), "large.guarded", 42, 0, null).get(5, TimeUnit.SECONDS));
            assertTrue(refused.getCause() instanceof ClientException, refused.toString());
            assertTrue(refused.getCause().getMessage().contains("no chunk"), refused.getCause().getMessage());
            assertFalse(session.createConsumer(queue).receive(TIMEOUT) == null, "the broker serves on");
        }
    }
}
