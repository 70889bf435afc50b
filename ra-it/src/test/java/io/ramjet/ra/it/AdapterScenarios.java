package io.ramjet.ra.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.provider.jms.RamjetXAConnectionFactory;
import io.ramjet.server.broker.security.PasswordHash;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scenarios every application server runs: ramjet-ra.rar and the test application (ra-it-app)
 * in one real server process, beside a standalone Ramjet server process: JTA sends through the
 * pooled factory and an injected {@code JMSContext}, queue and durable-topic beans that send on
 * in the same XA transaction, redelivery and the dead-letter queue, the
 * section 12 session rules, {@code @JMSConnectionFactoryDefinition} and
 * {@code @JMSDestinationDefinition}, a broker killed with {@code kill -9} three times at random
 * moments while a bean takes orders, and one killed between the prepare and the commit of an XA
 * transaction. The broker restarts run last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AdapterScenarios {

    private static final int MAX_DELIVERIES = 3;
    private static final Duration ARRIVAL = Duration.ofSeconds(60);
    private static final Duration QUIET = Duration.ofSeconds(2);
    /** Kills of the random kill test; {@code -Dra.it.kills} asks for more when hunting a rare failure. */
    private static final int KILLS = Integer.getInteger("ra.it.kills", 3);
    /** About how long the queue bean takes for a batch of 20 orders (about 200 a second here). */
    private static final int BATCH_MILLIS = 150;
    /** How long the outage test keeps the broker down: several reconnect attempts of every session. */
    private static final Duration OUTAGE = Duration.ofSeconds(4);

    /** A user the broker knows, for servers whose XA recovery signs on (WildFly's recovery-username). */
    static final String RECOVERY_USER = "recovery";
    static final String RECOVERY_PASSWORD = "recovery-secret";

    Path work;
    RamjetServer server;
    AppServer appServer;

    /**
     * Starts the application server with ramjet-ra.rar configured to reach {@code ramjetUrl} and
     * ra-it-app deployed, returning once the application answers.
     */
    abstract AppServer startServer(Path work, Path logs, String ramjetUrl) throws Exception;

    @BeforeAll
    void start(@TempDir Path work) throws Exception {
        this.work = work;
        Path logs = LoggedProcess.logDir();
        Properties broker = new Properties();
        broker.setProperty("maxDeliveries", Integer.toString(MAX_DELIVERIES));
        broker.setProperty("segmentSize", "64m");
        // anonymous connections stay allowed; the recovery user is the one a server may recover as
        Path users = work.resolve("users.properties");
        Files.writeString(users, RECOVERY_USER + " = "
                + PasswordHash.of(RECOVERY_PASSWORD.toCharArray()).encoded() + "\n");
        broker.setProperty("usersFile", users.toString());
        Path data = Files.createDirectories(work.resolve("ramjet-data"));
        server = new RamjetServer(data, logs.resolve(getClass().getSimpleName() + "-ramjet-server.log"), broker);
        server.start();
        appServer = startServer(work, logs, server.url());
    }

    @AfterAll
    void stop() throws InterruptedException {
        if (appServer != null) {
            appServer.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void committedSendArrivesAndRolledBackSendDoesNot() throws Exception {
        send("to=it.plain&count=3&prefix=kept&outcome=commit");
        send("to=it.plain&count=3&prefix=dropped&outcome=rollback");

        assertEquals(Set.of("kept-0", "kept-1", "kept-2"), new HashSet<>(drain("it.plain", 3)));
    }

    @Test
    @Order(2)
    void sessionRulesOfSectionTwelveHoldInATransaction() throws Exception {
        assertAnswers("/ra-it-app/rules", List.of("transacted=true", "commit=TransactionInProgressException",
                "rollback=TransactionInProgressException", "setMessageListener=IllegalStateException",
                "secondSession=IllegalStateException", "setClientID=IllegalStateException"));
    }

    @Test
    @Order(2)
    void injectedContextSendsInTheCallersJtaTransaction() throws Exception {
        post("/ra-it-app/context?to=it.context&count=3&prefix=kept&outcome=commit");
        post("/ra-it-app/context?to=it.context&count=3&prefix=dropped&outcome=rollback");

        assertEquals(expected("kept", 3), drainSorted("it.context", 3));
        assertNull(receiveOne("it.context", QUIET), "a rolled-back send arrived");
    }

    @Test
    @Order(2)
    void injectedContextRefusesWhatSectionTwelveForbidsInATransaction() throws Exception {
        assertAnswers("/ra-it-app/context", List.of("transacted=true", "commit=IllegalStateRuntimeException",
                "rollback=IllegalStateRuntimeException", "acknowledge=IllegalStateRuntimeException",
                "setClientID=IllegalStateRuntimeException", "stop=IllegalStateRuntimeException",
                "close=IllegalStateRuntimeException"));
    }

    /** {@code GET path} answers 200 with {@code lines}. */
    private void assertAnswers(String path, List<String> lines) throws IOException {
        HttpResponse<String> answer = appServer.get(path);

        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals(lines, answer.body().lines().toList());
    }

    @Test
    @Order(3)
    void queueBeanSendsEachOrderOnOnceInTheSameTransaction() throws Exception {
        send("to=it.orders&count=30&prefix=order&outcome=commit");

        assertEquals(expected("order", 30), drainSorted("it.orders.done", 30));
    }

    /**
     * Not a benchmark run apart, but a figure to watch: messages per second through
     * a bean that takes each in an XA transaction and sends it on in the same one.
     */
    @Test
    @Order(4)
    void queueBeanThroughputIsMeasured() throws Exception {
        int count = 500;
        send("to=it.orders&count=" + count + "&prefix=load&outcome=commit");
        long start = System.nanoTime();

        List<String> arrived = drainSorted("it.orders.done", count);
        long millis = (System.nanoTime() - start) / 1_000_000 - QUIET.toMillis();

        assertEquals(expected("load", count), arrived);
        System.out.printf("RA-IT OrdersBean (maxSession 3, XA consume + send, %s): %d messages in %d ms,"
                + " %.0f msg/s%n", appServer.name(), count, millis, count * 1000.0 / millis);
    }

    @Test
    @Order(5)
    void administeredQueueObjectReachesTheQueueBean() throws Exception {
        send("to=orders-admin&count=2&prefix=admin&outcome=commit");

        assertEquals(expected("admin", 2), drainSorted("it.orders.done", 2));
    }

    @Test
    @Order(6)
    void durableTopicBeanWithTwoSessionsTakesEachItemOnce() throws Exception {
        send("to=it.news&type=topic&count=20&prefix=news&outcome=commit");

        assertEquals(expected("news", 20), drainSorted("it.news.done", 20));
    }

    @Test
    @Order(7)
    void jmsDefinitionAnnotationsMapToTheAdapter() throws Exception {
        send("to=news-defined&count=3&prefix=defined&outcome=commit");

        assertEquals(expected("defined", 3), drainSorted("it.news.done", 3));
    }

    @Test
    @Order(8)
    void whatABeanSendsRollsBackWithTheMessageItTook() throws Exception {
        send("to=it.second-chance&count=5&prefix=chance&outcome=commit");

        List<Message> arrived = drainMessages("it.second-chance.done", 5);
        assertEquals(expected("chance", 5), texts(arrived).stream().sorted().toList());
        for (Message m : arrived) {
            assertEquals(2, m.getIntProperty("arrivedWithDeliveryCount"), "sent by a delivery that rolled back");
        }
    }

    @Test
    @Order(9)
    void failingBeanIsRedeliveredThenDeadLettered() throws Exception {
        int before = attempts();
        send("to=it.poison&count=1&prefix=poison&outcome=commit");

        Message dead = receiveOne("DLQ.it.poison", ARRIVAL);
        assertNotNull(dead, "nothing in DLQ.it.poison\n" + appServer.logTail());
        assertEquals("poison-0", ((TextMessage) dead).getText());
        assertEquals(MAX_DELIVERIES, attempts() - before);
    }

    /**
     * Kills the broker {@link #KILLS} times, each at a random moment while the queue bean takes a
     * batch of orders in XA transactions (so a kill may fall before, inside or after a prepare or
     * a commit), and counts what arrives: every order once.
     */
    @Test
    @Order(10)
    void beansResumeAndNothingCommittedIsLostWhenTheBrokerIsKilledAtRandom() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<String> wanted = new ArrayList<>();
        for (int kill = 0; kill < KILLS; kill++) {
            String prefix = "kill" + kill;
            sendRetrying("to=it.orders&count=20&prefix=" + prefix + "&outcome=commit");
            wanted.addAll(expected(prefix, 20));
            Thread.sleep(random.nextInt(BATCH_MILLIS));
            server.kill();
            server.start();
        }
        sendRetrying("to=it.orders&count=20&prefix=after&outcome=commit");
        wanted.addAll(expected("after", 20));
        sendRetrying("to=it.news&type=topic&count=5&prefix=later&outcome=commit");

        assertEquals(wanted.stream().sorted().toList(), drainSorted("it.orders.done", wanted.size()),
                "kills at random, seed " + seed);
        assertEquals(expected("later", 5), drainSorted("it.news.done", 5));
    }

    @Test
    @Order(11)
    void brokerKilledBetweenPrepareAndCommitLosesAndDuplicatesNothing() throws Exception {
        Path gate = Files.createDirectories(work.resolve("gate-0"));
        send("to=it.xa-crash&count=1&prefix=" + work.resolve("gate") + "&outcome=commit");
        awaitFile(gate.resolve("prepared"));

        server.kill();
        server.start();
        Files.writeString(gate.resolve("release"), "go");

        assertEquals(List.of(gate.toString()), drain("it.xa-crash.done", 1));
        assertTrue(Files.exists(gate.resolve("committed")), "the transaction manager did not commit");
        assertNull(receiveOne("it.xa-crash", QUIET), "the consumed message came back");
    }

    /**
     * A broker down for a while under five activations (ten sessions retrying every 500-1000 ms)
     * is one outage: the adapter says so once when it begins and once when it ends, and its
     * sessions do not log each failed attempt.
     */
    @Test
    @Order(12)
    void brokerOutageIsLoggedOnceWhenItBeginsAndOnceWhenItEnds() throws Exception {
        int mark = appServer.process().lineCount();
        server.kill();
        Thread.sleep(OUTAGE.toMillis());
        server.start();
        sendRetrying("to=it.orders&count=5&prefix=outage&outcome=commit");
        assertEquals(expected("outage", 5), drainSorted("it.orders.done", 5));
        awaitLogLine(mark, "answers again");

        List<String> logged = appServer.process().linesSince(mark);
        String window = String.join("\n", logged);
        assertEquals(1, count(logged, "does not answer"), window);
        assertEquals(1, count(logged, "answers again"), window);
        List<String> records = logged.stream().filter(line -> !line.stripLeading().startsWith("at ")).toList();
        assertEquals(0, count(records, "io.ramjet.ra.DeliveryWorker"), window);
    }

    private static long count(List<String> lines, String text) {
        return lines.stream().filter(line -> line.contains(text)).count();
    }

    private void awaitLogLine(int mark, String text) throws InterruptedException {
        long deadline = System.nanoTime() + ARRIVAL.toNanos();
        while (count(appServer.process().linesSince(mark), text) == 0) {
            assertTrue(System.nanoTime() < deadline, () -> "the server never logged '" + text + "'\n"
                    + appServer.logTail());
            Thread.sleep(100);
        }
    }

    private void awaitFile(Path file) throws InterruptedException {
        long deadline = System.nanoTime() + ARRIVAL.toNanos();
        while (!Files.exists(file)) {
            assertTrue(System.nanoTime() < deadline, () -> file + " never appeared\n" + appServer.logTail());
            Thread.sleep(100);
        }
    }

    private static List<String> expected(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + "-" + i).sorted().toList();
    }

    private void send(String query) throws IOException {
        post("/ra-it-app/send?" + query);
    }

    private void post(String path) throws IOException {
        HttpResponse<String> response = appServer.post(path);
        assertEquals(200, response.statusCode(), () -> response.body() + "\n" + appServer.logTail());
    }

    /**
     * Sends once the pool has given up the connections the broker restart broke: a send may fail
     * (and roll back) while the pool still hands out a connection it has not yet seen fail.
     */
    private void sendRetrying(String query) throws Exception {
        long deadline = System.nanoTime() + ARRIVAL.toNanos();
        HttpResponse<String> response;
        do {
            response = appServer.post("/ra-it-app/send?" + query);
            if (response.statusCode() == 200) {
                return;
            }
            Thread.sleep(500);
        } while (System.nanoTime() < deadline);
        fail("no send succeeded after the restart: " + response.body() + "\n" + appServer.logTail());
    }

    private int attempts() throws IOException {
        return Integer.parseInt(appServer.get("/ra-it-app/attempts").body().trim());
    }

    private List<String> drainSorted(String queue, int count) throws JMSException {
        return drain(queue, count).stream().sorted().collect(Collectors.toList());
    }

    private List<String> drain(String queue, int count) throws JMSException {
        return texts(drainMessages(queue, count));
    }

    private static List<String> texts(List<Message> messages) throws JMSException {
        List<String> texts = new ArrayList<>();
        for (Message m : messages) {
            texts.add(((TextMessage) m).getText());
        }
        return texts;
    }

    /**
     * Everything that arrives on {@code queue} until {@code count} messages came (or the arrival
     * timeout passed), and then for a quiet while more, so that a duplicate shows.
     */
    private List<Message> drainMessages(String queue, int count) throws JMSException {
        List<Message> arrived = new ArrayList<>();
        try (Connection connection = new RamjetConnectionFactory(server.url()).createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
            connection.start();
            long deadline = System.nanoTime() + ARRIVAL.toNanos();
            while (arrived.size() < count && System.nanoTime() < deadline) {
                Message m = consumer.receive(1_000);
                if (m != null) {
                    arrived.add(m);
                }
            }
            Message extra;
            while ((extra = consumer.receive(QUIET.toMillis())) != null) {
                arrived.add(extra);
            }
        }
        if (arrived.size() < count) {
            fail(queue + ": " + arrived.size() + " of " + count + " arrived: " + texts(arrived)
                    + "\nprepared branches at the broker: " + preparedBranches()
                    + "\nwhat the XA resources and the transaction manager logged:\n" + appServer.xaRecords()
                    + "\nthe server's threads in Ramjet's code:\n" + appServer.ramjetStacks()
                    + "\nthe broker's log:\n" + server.logTail() + "\nthe server's log:\n" + appServer.logTail());
        }
        return arrived;
    }

    /** The Xids of the branches prepared at the broker and not yet decided, for a failure message. */
    private List<String> preparedBranches() {
        try (XAConnection connection = new RamjetXAConnectionFactory(server.url()).createXAConnection()) {
            List<String> xids = new ArrayList<>();
            for (Xid xid : connection.createXASession().getXAResource()
                    .recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN)) {
                xids.add(xid.toString());
            }
            return xids;
        } catch (Exception e) {
            return List.of("(recover failed: " + e + ")");
        }
    }

    /** The one message {@code queue} gets within {@code wait}, or null; a second one fails the test. */
    private Message receiveOne(String queue, Duration wait) throws JMSException {
        try (Connection connection = new RamjetConnectionFactory(server.url()).createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
            connection.start();
            Message m = consumer.receive(wait.toMillis());
            assertNull(consumer.receive(QUIET.toMillis()), "a second message in " + queue);
            return m;
        }
    }
}
