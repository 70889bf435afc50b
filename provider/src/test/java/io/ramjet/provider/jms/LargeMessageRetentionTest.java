package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Retention and large messages, on a broker of its own with 4 MiB segments: a waiting large
 * message keeps the segments of its chunks (which lie below its message record) while retention
 * deletes what was consumed before it, and once it is consumed its chunks' segments go too.
 */
class LargeMessageRetentionTest {

    private static EmbeddedBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedBroker.start(c -> {
            BrokerConfigBuilder b = c.toBuilder();
            b.store().segmentSize(4 << 20);
            return b.build();
        });
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void aWaitingLargeMessageKeepsItsChunksAndTheyGoOnceItIsConsumed() throws Exception {
        try (Connection connection = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress()
                + "?largeMessageSize=65536").createConnection()) {
            connection.start();
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue("large.retained");
            MessageConsumer consumer = session.createConsumer(queue);
            session.createProducer(queue).send(bytes(session, body(9 << 20, 1)));
            assertNotNull(consumer.receive(5_000), "consumed before: its segments may go");
            byte[] body = body(12 << 20, 2);
            session.createProducer(queue).send(bytes(session, body));
            int before = broker.broker().store().segmentCount();

            retain();
            int kept = broker.broker().store().segmentCount();
            assertTrue(kept < before, "segments " + before + " before retention, " + kept + " after");
            BytesMessage got = (BytesMessage) consumer.receive(5_000);
            byte[] read = new byte[body.length];
            got.readBytes(read);
            assertArrayEquals(body, read, "chunks below the waiting message's record survive retention");

            session.createProducer(queue).send(session.createTextMessage("after"));
            assertNotNull(consumer.receive(5_000));
            retain();
            int after = broker.broker().store().segmentCount();
            assertTrue(after <= 2 && after < kept, "segments " + kept + " while it waited, " + after + " once consumed");
        }
    }

    private static void retain() {
        broker.broker().store().checkpoint();
        broker.broker().runRetention();
    }

    private static byte[] body(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static BytesMessage bytes(Session session, byte[] body) throws Exception {
        BytesMessage m = session.createBytesMessage();
        m.writeBytes(body);
        return m;
    }
}
