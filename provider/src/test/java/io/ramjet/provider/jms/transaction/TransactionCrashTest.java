package io.ramjet.provider.jms.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.embedded.EmbeddedCluster;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Clients killed (kill -9) in the middle of a transaction, in a child JVM; the brokers resolve
 * what they left by check-back (queue {@code a} on broker 0, {@code b} on broker 1, short
 * check-back timeouts).
 */
class TransactionCrashTest {

    private static final Duration CHECK_AFTER = Duration.ofMillis(300);
    private static final Duration CHECK_INTERVAL = Duration.ofMillis(100);
    /** Long enough for a check-back to have resolved a dead client's transaction. */
    private static final long RESOLVED_MS = 3_000;
    private static final long TIMEOUT = 10_000;

    private static EmbeddedCluster cluster;
    private Connection connection;
    private Session plain;
    private Queue a;
    private Queue b;

    @BeforeAll
    static void start() {
        cluster = EmbeddedCluster.start(2, c -> c.withTransactionChecks(CHECK_AFTER, CHECK_INTERVAL, 5));
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @BeforeEach
    void connect() throws Exception {
        String nameA = Destinations.unique("crash-a");
        String nameB = Destinations.unique("crash-b");
        Destinations.createQueueOn(cluster.nameServerAddress(), cluster.broker(0).address(), nameA);
        Destinations.createQueueOn(cluster.nameServerAddress(), cluster.broker(1).address(), nameB);
        connection = new RamjetConnectionFactory("ramjet://" + cluster.nameServerAddress()).createConnection();
        connection.start();
        plain = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        a = plain.createQueue(nameA);
        b = plain.createQueue(nameB);
    }

    @AfterEach
    void close() throws Exception {
        connection.close();
    }

    @Test
    void aClientKilledInsideATransactionIsRolledBackByCheckBack() throws Exception {
        plain.createProducer(a).send(plain.createTextMessage("consumed by the dead"));
        runUntilReady(CrashingTransactedClient.class, cluster.nameServerAddress(), queueName(a), queueName(b));
        MessageConsumer onA = plain.createConsumer(a);
        MessageConsumer onB = plain.createConsumer(b);
        Message back = onA.receive(TIMEOUT);
        assertNotNull(back, "the message the dead client consumed is delivered again");
        assertEquals("consumed by the dead", ((TextMessage) back).getText());
        assertTrue(back.getJMSRedelivered());
        assertTrue(back.getIntProperty("JMSXDeliveryCount") >= 2);
        assertNull(onB.receive(RESOLVED_MS), "nothing the dead client sent becomes visible");
        assertNull(onA.receive(100), "the redelivered message comes once");
    }

    @Test
    void aParticipantCommitsByCheckBackWhenTheCoordinatorRecordedTheCommit() throws Exception {
        runUntilReady(CrashingTwoBrokerClient.class, cluster.nameServerAddress(), cluster.broker(0).address(),
                queueName(a), queueName(b), "committed");
        assertEquals("on the coordinator", text(plain.createConsumer(a).receive(TIMEOUT)));
        assertEquals("on the participant", text(plain.createConsumer(b).receive(TIMEOUT)),
                "the participant learns the commit from the coordinator");
    }

    @Test
    void aPreparedParticipantRollsBackWhenTheCoordinatorNeverDecided() throws Exception {
        runUntilReady(CrashingTwoBrokerClient.class, cluster.nameServerAddress(), cluster.broker(0).address(),
                queueName(a), queueName(b), "prepared");
        MessageConsumer onA = plain.createConsumer(a);
        MessageConsumer onB = plain.createConsumer(b);
        assertNull(onB.receive(RESOLVED_MS), "the participant rolls back");
        assertNull(onA.receive(TIMEOUT / 10), "the coordinator rolls back");
    }

    private static String queueName(Queue q) throws Exception {
        return q.getQueueName();
    }

    private static String text(Message m) throws Exception {
        assertNotNull(m, "no message");
        return ((TextMessage) m).getText();
    }

    /** Starts a child JVM on the test classpath, waits for its READY line, then kills it with -9. */
    private static void runUntilReady(Class<?> main, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", System.getProperty("java.class.path"),
                main.getName()));
        command.addAll(List.of(args));
        Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            // the child prints one line: READY at its crash point, or NOTHING when it found no message
            String line = out.readLine();
            assertEquals("READY", line, main.getSimpleName() + " did not get to its crash point");
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        }
    }
}
