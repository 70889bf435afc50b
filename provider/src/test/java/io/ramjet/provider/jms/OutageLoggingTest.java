package io.ramjet.provider.jms;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client logs an outage once when it begins and once when it ends, not once per request: an
 * application sending through an outage of its destination's broker (none registered with the
 * NameServer) reads one INFO line when the first send finds no route and one when a send finds
 * it again, whatever the number of sends that failed in between. The test reads what the
 * logging binding of the tests (slf4j-simple) writes to standard error.
 */
class OutageLoggingTest {

    private static final int SENDS_DURING_OUTAGE = 2;

    @TempDir
    Path dir;

    private NameServer nameServer;
    private Broker broker;

    @AfterEach
    void stop() {
        GroupBrokers.closeAll(nameServer, broker);
    }

    @Test
    void sendsThroughAnOutageLogItsBeginningAndItsEndOnce() throws Exception {
        // answering "no broker" at once, not holding lookups for brokers to register after its start
        nameServer = new NameServer(NameServerConfig.defaults().withPort(0).withRegistrationWindow(Duration.ZERO));
        nameServer.start();
        String queue = "outage-" + UUID.randomUUID().toString().substring(0, 8);
        ByteArrayOutputStream logged = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(new Tee(original, logged), true, StandardCharsets.UTF_8));
        try {
            // short timeouts keep each failing send short; opening the connection (its first request
            // to a NameServer just started) may take longer on a loaded machine, and is retried
            RamjetConnectionFactory factory = new RamjetConnectionFactory("ramjet://" + nameServer.address()
                    + "?requestTimeout=1500&failoverTimeout=500");
            try (Connection connection = await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                    .until(factory::createConnection, c -> c != null)) {
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer producer = session.createProducer(session.createQueue(queue));
                for (int i = 0; i < SENDS_DURING_OUTAGE; i++) {
                    assertThrows(JMSException.class, () -> producer.send(session.createTextMessage("lost")),
                            "no broker serves the queue yet");
                }
                // the queue declared, so the broker's registration brings its route
                broker = GroupBrokers.start(GroupBrokers.config(nameServer.address(), dir, 0,
                        ReplicationConfig.DEFAULT, 1).toBuilder().queues(List.of(queue)).build());
                await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                        .until(() -> {
                            producer.send(session.createTextMessage("after"));
                            return true;
                        });
                producer.send(session.createTextMessage("once more"));
            }
        } finally {
            System.setErr(original);
        }
        String log = logged.toString(StandardCharsets.UTF_8);
        assertEquals(1, count(log, "no route for QUEUE '" + queue + "'"), log);
        assertEquals(1, count(log, "route of QUEUE '" + queue + "': answered again"), log);
    }

    private static long count(String log, String text) {
        return log.lines().filter(line -> line.contains(text)).count();
    }

    /** Writes to both streams: what the test reads, and the test's own standard error. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public synchronized void write(int b) throws java.io.IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws java.io.IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }

        @Override
        public void flush() throws java.io.IOException {
            first.flush();
            second.flush();
        }
    }
}
