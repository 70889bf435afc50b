package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.server.broker.BrokerConfigBuilder;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a client allocates on its heap for a large message, counted per thread
 * ({@code com.sun.management.ThreadMXBean.getThreadAllocatedBytes}) over the client's threads
 * (the application's, its I/O threads, its upload and consumer threads), with the broker in the
 * same JVM left out: a body streamed in ({@code JMS_Ramjet_InputStream}) or out
 * ({@code JMS_Ramjet_SaveStream}) costs less than two chunks of heap, not the body's size; a body
 * written with {@code writeBytes} is sent without another copy; a received body read whole is one
 * copy.
 * Each test sends and receives twice, the first time to warm the paths up, and measures the
 * second. Default {@code largeMessageSize} (1 MiB chunks). Netty's leak detector stays at its
 * default here, since at PARANOID it records on the heap every access to every buffer; that the
 * chunks' pooled buffers are all released is {@code LargeMessagesTest}'s and
 * {@code LargeChunkBuffersTest}'s to check.
 */
class LargeMessageClientHeapTest {

    private static final int MIB = 1 << 20;
    private static final int BODY = 24 * MIB;
    /**
     * The heap a send or a streamed receive may allocate, the body's own copy aside: less than two
     * chunks, so no chunk copied to the heap, and no array made per chunk or per body (a
     * connection's chunk arrays serve every body it reads).
     */
    private static final long UNDER_TWO_CHUNKS = 2L * MIB;
    private static final long TIMEOUT = 30_000;
    private static EmbeddedBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedBroker.start(c -> {
            BrokerConfigBuilder b = c.toBuilder();
            b.store().segmentSize(128 * MIB);
            return b.build();
        });
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    private static Connection connect() throws JMSException {
        Connection connection = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress())
                .createConnection();
        connection.start();
        return connection;
    }

    @Test
    void aStreamedBodyIsSentAndSavedWithUnderTwoChunksOfHeap() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue("large.heap.streamed");
            MessageProducer producer = session.createProducer(queue);
            MessageConsumer consumer = session.createConsumer(queue);
            for (int round = 0; round < 2; round++) {
                ClientAllocations sending = ClientAllocations.start();
                BytesMessage m = session.createBytesMessage();
                m.setObjectProperty("JMS_Ramjet_InputStream", new Pattern(BODY));
                producer.send(m);
                long sent = sending.bytes();

                BytesMessage got = (BytesMessage) consumer.receive(TIMEOUT);
                ClientAllocations saving = ClientAllocations.start();
                PatternCheck saved = new PatternCheck();
                got.setObjectProperty("JMS_Ramjet_SaveStream", saved);
                long received = saving.bytes();
                assertEquals(BODY, saved.count(), "bytes saved");
                System.out.printf("LargeMessageClientHeapTest streamed, round %d: the client allocated %d KiB"
                        + " sending and %d KiB saving a body of %d MiB%n", round, sent >> 10, received >> 10, BODY >> 20);
                if (round == 1) {
                    assertTrue(sent < UNDER_TWO_CHUNKS, "heap allocated sending a streamed body of " + BODY + ": " + sent);
                    assertTrue(received < UNDER_TWO_CHUNKS, "heap allocated saving a body of " + BODY + ": " + received);
                }
            }
        }
    }

    @Test
    void aWrittenBodyIsSentWithoutACopyAndReadWholeIntoOne() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue("large.heap.written");
            MessageProducer producer = session.createProducer(queue);
            MessageConsumer consumer = session.createConsumer(queue);
            byte[] body = new byte[BODY];
            Pattern.fill(body);
            for (int round = 0; round < 2; round++) {
                BytesMessage m = session.createBytesMessage();
                m.writeBytes(body);
                ClientAllocations sending = ClientAllocations.start();
                producer.send(m);
                long sent = sending.bytes();

                BytesMessage got = (BytesMessage) consumer.receive(TIMEOUT);
                ClientAllocations reading = ClientAllocations.start();
                byte[] whole = got.getBody(byte[].class);
                long received = reading.bytes();
                assertArrayEquals(body, whole, "the body read whole");
                System.out.printf("LargeMessageClientHeapTest written, round %d: the client allocated %d KiB"
                        + " sending and %d KiB reading whole a body of %d MiB%n", round, sent >> 10, received >> 10,
                        BODY >> 20);
                if (round == 1) {
                    assertTrue(sent < UNDER_TWO_CHUNKS, "heap allocated sending a written body of " + BODY + ": " + sent);
                    assertTrue(received < BODY + UNDER_TWO_CHUNKS, "heap allocated reading whole a body of " + BODY
                            + ": " + received);
                }
            }
        }
    }

    /** The heap bytes the client's threads allocated since {@link #start}, the broker's left out. */
    private static final class ClientAllocations {
        private static final com.sun.management.ThreadMXBean THREADS =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

        private final Map<Long, Long> before;

        private ClientAllocations(Map<Long, Long> before) {
            this.before = before;
        }

        static ClientAllocations start() {
            return new ClientAllocations(now());
        }

        long bytes() {
            long sum = 0;
            for (Map.Entry<Long, Long> t : now().entrySet()) {
                sum += t.getValue() - before.getOrDefault(t.getKey(), 0L);
            }
            return sum;
        }

        private static Map<Long, Long> now() {
            Map<Long, Long> allocated = new HashMap<>();
            Thread current = Thread.currentThread();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                String name = t.getName();
                if (t == current || name.startsWith("ramjet-client-io") || name.startsWith("ramjet-large-upload")
                        || name.startsWith("ramjet-consumer-")) {
                    allocated.put(t.getId(), THREADS.getThreadAllocatedBytes(t.getId()));
                }
            }
            return allocated;
        }
    }

    /** A body of {@code length} bytes, byte {@code i} being {@link #at}{@code (i)}, made as it is read. */
    private static final class Pattern extends InputStream {
        private final long length;
        private long position;

        Pattern(long length) {
            this.length = length;
        }

        static byte at(long i) {
            return (byte) (i * 31 + (i >>> 16));
        }

        static void fill(byte[] into) {
            for (int i = 0; i < into.length; i++) {
                into[i] = at(i);
            }
        }

        @Override
        public int read() {
            return position == length ? -1 : at(position++) & 0xff;
        }

        @Override
        public int read(byte[] into, int offset, int count) {
            if (position == length) {
                return -1;
            }
            int n = (int) Math.min(count, length - position);
            for (int i = 0; i < n; i++) {
                into[offset + i] = at(position++);
            }
            return n;
        }
    }

    /** Checks that what is written to it is {@link Pattern}'s body, and counts it; keeps none of it. */
    private static final class PatternCheck extends OutputStream {
        private long count;

        @Override
        public void write(int b) {
            assertEquals(Pattern.at(count), (byte) b, "byte " + count);
            count++;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            for (int i = 0; i < length; i++) {
                if (bytes[offset + i] != Pattern.at(count)) {
                    assertEquals(Pattern.at(count), bytes[offset + i], "byte " + count);
                }
                count++;
            }
        }

        long count() {
            return count;
        }
    }
}
