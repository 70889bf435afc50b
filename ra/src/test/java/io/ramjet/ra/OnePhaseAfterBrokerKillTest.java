package io.ramjet.ra;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionManager;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one-phase consume-and-send of {@link OnePhaseConsumeAndSendTest} while the broker, a child
 * JVM, is killed ({@code kill -9}) twice at random moments and restarted on its data: a forwarder
 * takes each order from one queue on an inbound session and sends it on through the pooled
 * factory, Narayana committing each transaction in one phase. Each order arrives exactly once and
 * none stays behind: a kill never leaves a send without its acknowledgement or the reverse.
 */
class OnePhaseAfterBrokerKillTest {

    private static final int ORDERS = 40;
    private static final Duration PATIENCE = Duration.ofSeconds(90);

    @TempDir
    static Path txStore;
    @TempDir
    Path data;

    private NameServer nameServer;
    private Process broker;
    private int brokerPort;
    private RamjetResourceAdapter adapter;
    private Forwarder forwarder;

    @AfterEach
    void stop() throws Exception {
        if (forwarder != null) {
            forwarder.stopAndJoin();
        }
        if (adapter != null) {
            adapter.stop();
        }
        kill();
        if (nameServer != null) {
            nameServer.close();
        }
        Narayana.delete(txStore);
    }

    @Test
    void eachOrderArrivesOnceThroughBrokerKills() throws Exception {
        TransactionManager transactions = Narayana.transactionManager(txStore);
        nameServer = new NameServer(NameServerConfig.defaults().withPort(0));
        nameServer.start();
        String url = "ramjet://" + nameServer.address();
        launch(0);
        Set<String> orders = new HashSet<>();
        try (Connection connection = new RamjetConnectionFactory(url).createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            var producer = session.createProducer(session.createQueue("kill.in"));
            for (int i = 0; i < ORDERS; i++) {
                orders.add("order " + i);
                producer.send(session.createTextMessage("order " + i));
            }
        }
        adapter = new RamjetResourceAdapter();
        adapter.setConnectionUrl(url);
        adapter.start(new TestContainer(transactions));
        RamjetManagedConnectionFactory managed = new RamjetManagedConnectionFactory();
        managed.setResourceAdapter(adapter);
        ConnectionSettings settings = managed.settings();
        forwarder = new Forwarder(transactions, settings, adapter,
                (ConnectionFactory) managed.createConnectionFactory(new TestContainer(transactions)));
        forwarder.start();

        for (int kill = 0; kill < 2; kill++) {
            int after = forwarder.committed.get() + ThreadLocalRandom.current().nextInt(3, 10);
            await().atMost(PATIENCE).until(() -> forwarder.committed.get() >= after);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ThreadLocalRandom.current().nextInt(20)));
            kill();
            launch(brokerPort);
        }
        forwarder.killsOver = true;
        await().atMost(PATIENCE).until(() -> forwarder.quietAfterKills.get() >= 3);
        forwarder.stopAndJoin();

        List<String> arrived = drain(url, "kill.out");
        assertEquals(ORDERS, arrived.size(), () -> "arrived " + arrived);
        assertEquals(orders, new HashSet<>(arrived), "each order once");
        assertEquals(List.of(), drain(url, "kill.in"), "orders left behind");
        assertEquals(0, forwarder.prepares.get(), "prepares asked");
        assertTrue(forwarder.onePhaseCommits.get() >= ORDERS, "one-phase commits");
    }

    private static List<String> drain(String url, String queue) throws JMSException {
        List<String> texts = new ArrayList<>();
        try (Connection connection = new RamjetConnectionFactory(url).createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
            connection.start();
            Message m;
            while ((m = consumer.receive(2_000)) != null) {
                texts.add(((TextMessage) m).getText());
            }
        }
        return texts;
    }

    private void launch(int port) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", System.getProperty("java.class.path"),
                ChildBroker.class.getName(), data.toString(), Integer.toString(port), nameServer.address())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        broker = p;
        String line = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertNotNull(line, "the broker child ended before it served");
        assertTrue(line.startsWith("READY "), line);
        brokerPort = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1));
    }

    private void kill() throws InterruptedException {
        Process p = broker;
        if (p != null) {
            p.destroyForcibly();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the broker child did not die");
            broker = null;
        }
    }

    /**
     * An MDB's work in a loop: an inbound session (opened as {@link DeliveryWorker} opens it)
     * takes an order in a Narayana transaction, the pooled factory sends it on, Narayana
     * commits. A failure rolls back what it can and opens a new session.
     */
    private static final class Forwarder extends Thread {
        private final TransactionManager transactions;
        private final ConnectionSettings settings;
        private final RamjetResourceAdapter adapter;
        private final ConnectionFactory pooled;
        final AtomicInteger committed = new AtomicInteger();
        final AtomicInteger quietAfterKills = new AtomicInteger();
        volatile boolean killsOver;
        /** What the inbound sessions' resources were asked, over all of them. */
        final AtomicInteger prepares = new AtomicInteger();
        final AtomicInteger onePhaseCommits = new AtomicInteger();
        private volatile boolean stopped;

        Forwarder(TransactionManager transactions, ConnectionSettings settings, RamjetResourceAdapter adapter,
                  ConnectionFactory pooled) {
            super("one-phase-forwarder");
            this.transactions = transactions;
            this.settings = settings;
            this.adapter = adapter;
            this.pooled = pooled;
        }

        @Override
        public void run() {
            XAConnection connection = null;
            MessageConsumer consumer = null;
            RecordingXAResource enlisted = null;
            while (!stopped) {
                try {
                    if (connection == null) {
                        connection = settings.openXA(adapter.resourceManager(settings));
                        XASession session = connection.createXASession();
                        consumer = session.createConsumer(session.createQueue("kill.in"));
                        connection.start();
                        enlisted = new RecordingXAResource(new CompletingXAResource(session.getXAResource(), settings));
                    }
                    transactions.begin();
                    transactions.getTransaction().enlistResource(enlisted);
                    Message m = consumer.receive(1_000);
                    if (m == null) {
                        transactions.rollback();
                        if (killsOver) {
                            quietAfterKills.incrementAndGet();
                        }
                        continue;
                    }
                    quietAfterKills.set(0);
                    try (Connection c = pooled.createConnection()) {
                        Session s = c.createSession();
                        s.createProducer(s.createQueue("kill.out")).send(s.createTextMessage(((TextMessage) m).getText()));
                    }
                    transactions.commit();
                    committed.incrementAndGet();
                } catch (Exception e) {
                    rollBackQuietly();
                    closeQuietly(connection);
                    connection = null;
                    quietAfterKills.set(0);
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // a pause between attempts
                } finally {
                    if (enlisted != null) {
                        prepares.addAndGet(enlisted.prepares.getAndSet(0));
                        onePhaseCommits.addAndGet(enlisted.onePhaseCommits.getAndSet(0));
                    }
                }
            }
            closeQuietly(connection);
        }

        void stopAndJoin() throws InterruptedException {
            stopped = true;
            join(TimeUnit.SECONDS.toMillis(30));
        }

        private void rollBackQuietly() {
            try {
                if (transactions.getStatus() != Status.STATUS_NO_TRANSACTION) {
                    transactions.rollback();
                }
            } catch (Exception e) {
                // the transaction is over either way
            }
        }

        private static void closeQuietly(XAConnection connection) {
            if (connection != null) {
                try {
                    connection.close();
                } catch (JMSException e) {
                    // a connection to a killed broker
                }
            }
        }
    }
}
