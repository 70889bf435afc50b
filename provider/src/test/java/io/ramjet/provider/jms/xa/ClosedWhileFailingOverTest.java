package io.ramjet.provider.jms.xa;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A server whose broker and NameServer are both gone (the standalone server's case: one process
 * holds both), so a connection that saw the master gone looks for the group's next master for
 * {@code failoverTimeout}: closing the connection ends that search, and what waits for it fails
 * at once. An application server's pool closes a broken connection so, while a message-driven
 * bean's transaction may still wait on it.
 */
class ClosedWhileFailingOverTest {

    private static final long FAILOVER_TIMEOUT_MILLIS = 20_000;

    @Test
    void aSendWaitingForTheGroupsNextMasterEndsWhenItsConnectionCloses() throws Exception {
        Path data = Files.createTempDirectory("ramjet-closed-while-waiting-");
        NameServer nameServer = new NameServer(NameServerConfig.defaults().withPort(0));
        nameServer.start();
        BrokerProcess broker = BrokerProcess.start(data, nameServer.address());
        String url = "ramjet://" + nameServer.address() + "?failoverTimeout=" + FAILOVER_TIMEOUT_MILLIS;
        try {
            Connection connection = new RamjetConnectionFactory(url).createConnection();
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            Queue queue = session.createQueue("closed-" + UUID.randomUUID().toString().substring(0, 8));
            MessageProducer producer = session.createProducer(queue);
            producer.send(session.createTextMessage("before"));
            session.commit();
            broker.kill();
            nameServer.close();
            producer.send(session.createTextMessage("lost"));
            assertThrows(JMSException.class, session::rollback, "the broker to tell is gone");

            CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> {
                try {
                    producer.send(session.createTextMessage("waits for the next master"));
                    session.commit();
                } catch (JMSException e) {
                    throw new CompletionException(e);
                }
            });
            Thread.sleep(500);
            // the rolled-back send reports the master's loss asynchronously: when the commit got
            // there first, it failed at once and there is no wait to end (reported as skipped)
            assumeFalse(waiting.isDone(), "the commit did not wait for the group's next master");
            long start = System.nanoTime();
            connection.close();
            ExecutionException ended = assertThrows(ExecutionException.class, () -> waiting.get(5, TimeUnit.SECONDS),
                    "the send ends with an exception once its connection is closed");
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(millis < 5_000, "closing took " + millis + " ms");
            assertTrue(ended.getCause() instanceof JMSException, ended.toString());
        } finally {
            broker.close();
            nameServer.close();
            try (Stream<Path> files = Files.walk(data)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }
}
