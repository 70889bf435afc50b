package io.ramjet.provider.jms;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.transaction.RamjetXid;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TransactionRolledBackException;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Clients follow a broker group's master with real brokers on 127.0.0.1: a master and
 * a slave under SYNC replication with a NameServer; producers (sync and async sends) and
 * consumers (AUTO, CLIENT, DUPS_OK, transacted, XA, a durable subscriber) run; the master is
 * closed and the slave restarted as master (a new epoch, a new address). The switch happens once,
 * in {@link #switchMastersUnderLoad()}; each test checks one behaviour of what was seen.
 *
 * <p>Duplicates: a send the old master stored (and replicated) but did not answer is resent, so
 * it may be stored twice (a copy not flagged redelivered) until the idempotent producer lands;
 * such copies are counted apart. A copy comes first-delivered (not flagged redelivered), which
 * tells it from a message delivered again: that one is flagged, and never allowed once a
 * CLIENT_ACKNOWLEDGE acknowledgement of it returned.
 */
class MasterFailoverTest {

    private static final Logger LOG = LoggerFactory.getLogger(MasterFailoverTest.class);
    private static final long TIMEOUT_MILLIS = 30_000;
    private static final Duration TIMEOUT = Duration.ofMillis(TIMEOUT_MILLIS);
    private static final int ASYNC_WINDOW = 16;
    private static final int SENDS_AFTER_SWITCH = 100;

    @TempDir
    static Path root;

    private static NameServer nameServer;
    private static Broker master;
    private static Broker slave;
    private static Broker promoted;
    private static final List<AutoCloseable> clients = new ArrayList<>();

    private static final Received auto = new Received();
    private static final Received dupsOk = new Received();
    private static final Received client = new Received();
    private static final Set<String> clientAcknowledged = ConcurrentHashMap.newKeySet();
    private static final List<String> acknowledgedThenAgain = new CopyOnWriteArrayList<>();
    private static final AtomicInteger acknowledgeFailures = new AtomicInteger();
    /** CLIENT_ACKNOWLEDGE: acknowledge() calls that returned, begun after the old master closed. */
    private static final AtomicInteger acknowledgedAfterSwitch = new AtomicInteger();
    private static final Set<String> syncSent = ConcurrentHashMap.newKeySet();
    private static final Set<String> asyncSent = ConcurrentHashMap.newKeySet();
    private static final List<Exception> sendFailures = new CopyOnWriteArrayList<>();
    private static final AtomicLong firstSendAfterSwitchNanos = new AtomicLong();
    /** When the old master had closed: a send started later can only be answered by the new one. */
    private static volatile long masterClosedNanos;
    private static Exception commitAcrossSwitch;
    private static String committedAfterSwitch;
    private static List<Xid> recovered;
    private static final Xid PREPARED = new RamjetXid(77, "ha-global".getBytes(StandardCharsets.UTF_8),
            "ha-branch".getBytes(StandardCharsets.UTF_8));
    private static String xaCommittedBody;
    private static final Xid COMMITTED_BEFORE = new RamjetXid(77, "ha-global-done".getBytes(StandardCharsets.UTF_8),
            "ha-branch".getBytes(StandardCharsets.UTF_8));
    /** The XA error code of committing again, after the switch, a branch committed before it; 0 if it succeeded. */
    private static int recommitAfterSwitch;
    private static final List<Message> durableAgain = new ArrayList<>();
    private static long switchMillis;
    private static long promotionMillis;

    /** What one consumer received, in order, and whether each came flagged as redelivered. */
    private static final class Received {
        final List<String> bodies = new CopyOnWriteArrayList<>();
        final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
        final List<String> unflaggedRepeats = new CopyOnWriteArrayList<>();

        void add(Message m) throws JMSException {
            String body = ((TextMessage) m).getText();
            bodies.add(body);
            if (counts.computeIfAbsent(body, b -> new AtomicInteger()).incrementAndGet() > 1
                    && !m.getJMSRedelivered()) {
                unflaggedRepeats.add(body);
            }
        }

        boolean hasAll(Set<String> sent) {
            return counts.keySet().containsAll(sent);
        }

        /** The bodies in the order of their first arrival. */
        List<String> firstArrivals() {
            Set<String> seen = ConcurrentHashMap.newKeySet();
            return bodies.stream().filter(seen::add).toList();
        }
    }

    private static BrokerConfig config(Path dir, long brokerId, ReplicationConfig replication) {
        return GroupBrokers.config(nameServer.address(), dir, brokerId, replication, 2);
    }

    private static Broker start(BrokerConfig config) throws Exception {
        return GroupBrokers.start(config);
    }

    private static <T extends AutoCloseable> T closeLater(T closeable) {
        clients.add(0, closeable);
        return closeable;
    }

    @BeforeAll
    static void switchMastersUnderLoad() throws Exception {
        nameServer = new NameServer(NameServerConfig.defaults().withPort(0));
        nameServer.start();
        ReplicationConfig sync = ReplicationConfig.DEFAULT.withMode(ReplicationConfig.Mode.SYNC, 2);
        master = start(config(root.resolve("master"), 0, sync));
        slave = start(config(root.resolve("slave"), 1, sync.asSlaveOf(master.address())));
        await("the slave in sync").atMost(TIMEOUT).until(() -> master.inSyncReplicas().contains(1L));
        String url = "ramjet://" + nameServer.address() + "?discoveryMillis=200&resubscribeMillis=100";
        RamjetConnectionFactory factory = new RamjetConnectionFactory(url);

        Connection connection = closeLater(factory.createConnection());
        connection.start();
        AtomicBoolean producing = new AtomicBoolean(true);
        Thread syncProducer = syncProducer(connection, producing);
        Semaphore asyncWindow = new Semaphore(ASYNC_WINDOW);
        Thread asyncProducer = asyncProducer(connection, producing, asyncWindow);
        consumeContinuously(connection, Session.AUTO_ACKNOWLEDGE, "ha-auto", auto);
        consumeContinuously(connection, Session.DUPS_OK_ACKNOWLEDGE, "ha-dups", dupsOk);
        consumeContinuously(connection, Session.CLIENT_ACKNOWLEDGE, "ha-async", client);

        Session transacted = connection.createSession(Session.SESSION_TRANSACTED);
        Queue txIn = transacted.createQueue("ha-tx");
        try (Session loader = connection.createSession(Session.AUTO_ACKNOWLEDGE)) {
            loader.createProducer(txIn).send(loader.createTextMessage("tx-0"));
        }
        MessageConsumer txConsumer = transacted.createConsumer(txIn);
        MessageProducer txProducer = transacted.createProducer(transacted.createQueue("ha-tx-out"));
        assertNotNull(txConsumer.receive(TIMEOUT_MILLIS));
        txProducer.send(transacted.createTextMessage("tx-out-across"));

        XAConnection xa = closeLater(new RamjetXAConnectionFactory(url).createXAConnection());
        XASession xaSession = xa.createXASession();
        XAResource resource = xaSession.getXAResource();
        resource.start(PREPARED, XAResource.TMNOFLAGS);
        xaSession.getSession().createProducer(xaSession.getSession().createQueue("ha-xa"))
                .send(xaSession.getSession().createTextMessage("xa-prepared"));
        resource.end(PREPARED, XAResource.TMSUCCESS);
        assertEquals(XAResource.XA_OK, resource.prepare(PREPARED));
        resource.start(COMMITTED_BEFORE, XAResource.TMNOFLAGS);
        xaSession.getSession().createProducer(xaSession.getSession().createQueue("ha-xa-done"))
                .send(xaSession.getSession().createTextMessage("xa-committed"));
        resource.end(COMMITTED_BEFORE, XAResource.TMSUCCESS);
        assertEquals(XAResource.XA_OK, resource.prepare(COMMITTED_BEFORE));
        resource.commit(COMMITTED_BEFORE, false);

        Connection durableConnection = closeLater(factory.createConnection());
        durableConnection.setClientID("ha-durable-client");
        durableConnection.start();
        Session durableSession = durableConnection.createSession(Session.CLIENT_ACKNOWLEDGE);
        Topic topic = durableSession.createTopic("ha-topic");
        MessageConsumer durable = durableSession.createDurableSubscriber(topic, "ha-sub");
        MessageProducer publisher = durableSession.createProducer(topic);
        for (int i = 0; i < 5; i++) {
            publisher.send(durableSession.createTextMessage("topic-" + i));
        }
        for (int i = 0; i < 5; i++) {
            assertNotNull(durable.receive(TIMEOUT_MILLIS), "delivered before the switch, not acknowledged");
        }

        await("sends before the switch").atMost(TIMEOUT).until(() -> syncSent.size() > 100 && asyncSent.size() > 100);
        Path slaveDir = slave.config().dataDir();
        long switchNanos = System.nanoTime();
        master.close();
        masterClosedNanos = System.nanoTime();
        slave.close();
        long slaveDown = System.nanoTime();
        promoted = start(config(slaveDir, 1, ReplicationConfig.DEFAULT));
        long promotedAt = System.nanoTime();
        promotionMillis = TimeUnit.NANOSECONDS.toMillis(promotedAt - slaveDown);
        int syncBefore = syncSent.size();
        int asyncBefore = asyncSent.size();
        await("sends after the switch").atMost(TIMEOUT).until(() -> syncSent.size() > syncBefore + SENDS_AFTER_SWITCH
                && asyncSent.size() > asyncBefore + SENDS_AFTER_SWITCH);
        switchMillis = TimeUnit.NANOSECONDS.toMillis(firstSendAfterSwitchNanos.get() - switchNanos);
        producing.set(false);
        syncProducer.join(TIMEOUT_MILLIS);
        asyncProducer.join(TIMEOUT_MILLIS);
        assertTrue(asyncWindow.tryAcquire(ASYNC_WINDOW, TIMEOUT_MILLIS, TimeUnit.MILLISECONDS), "async sends answered");

        try {
            transacted.commit();
        } catch (Exception e) {
            commitAcrossSwitch = e;
        }
        Message again = txConsumer.receive(TIMEOUT_MILLIS);
        txProducer.send(transacted.createTextMessage("tx-out-after"));
        transacted.commit();
        committedAfterSwitch = again == null ? null : ((TextMessage) again).getText();

        XAConnection recovering = closeLater(new RamjetXAConnectionFactory(url).createXAConnection());
        XAResource recovery = recovering.createXASession().getXAResource();
        recovered = Arrays.asList(recovery.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN));
        recovery.commit(PREPARED, false);
        try {
            recovery.commit(COMMITTED_BEFORE, false);
        } catch (XAException e) {
            recommitAfterSwitch = e.errorCode;
        }
        try (Session reader = connection.createSession(Session.AUTO_ACKNOWLEDGE)) {
            Message committed = reader.createConsumer(reader.createQueue("ha-xa")).receive(TIMEOUT_MILLIS);
            xaCommittedBody = committed == null ? null : ((TextMessage) committed).getText();
        }

        for (int i = 0; i < 5; i++) {
            Message m = durable.receive(TIMEOUT_MILLIS);
            if (m != null) {
                durableAgain.add(m);
            }
        }
        await("every message sent delivered").atMost(TIMEOUT).until(() -> auto.hasAll(evenOf(syncSent))
                && dupsOk.hasAll(oddOf(syncSent)) && client.hasAll(asyncSent));
        LOG.info("switch: master closing -> first send answered by the new master after {} ms (slave restart as master took {} ms); "
                + "stored twice by resends: AUTO {}, DUPS_OK {}, CLIENT {}", switchMillis, promotionMillis,
                auto.unflaggedRepeats.size(), dupsOk.unflaggedRepeats.size(), client.unflaggedRepeats.size());
    }

    private static Set<String> evenOf(Set<String> sent) {
        return Set.copyOf(sent.stream().filter(b -> Integer.parseInt(b.substring(b.indexOf('-') + 1)) % 2 == 0).toList());
    }

    private static Set<String> oddOf(Set<String> sent) {
        return Set.copyOf(sent.stream().filter(b -> Integer.parseInt(b.substring(b.indexOf('-') + 1)) % 2 == 1).toList());
    }

    /** Sends "sync-i" in turn to ha-auto (even i) and ha-dups (odd i), each send waiting for its answer. */
    private static Thread syncProducer(Connection connection, AtomicBoolean producing) throws JMSException {
        Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
        MessageProducer toAuto = session.createProducer(session.createQueue("ha-auto"));
        MessageProducer toDups = session.createProducer(session.createQueue("ha-dups"));
        return started("sync-producer", () -> {
            for (int i = 0; producing.get(); i++) {
                String body = "sync-" + i;
                long closedBefore = masterClosedNanos;
                (i % 2 == 0 ? toAuto : toDups).send(session.createTextMessage(body));
                syncSent.add(body);
                if (closedBefore != 0) {
                    firstSendAfterSwitchNanos.compareAndSet(0, System.nanoTime());
                }
            }
        });
    }

    /** Sends "async-i" to ha-async with up to {@link #ASYNC_WINDOW} sends unanswered. */
    private static Thread asyncProducer(Connection connection, AtomicBoolean producing, Semaphore window)
            throws JMSException {
        Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
        MessageProducer producer = session.createProducer(session.createQueue("ha-async"));
        return started("async-producer", () -> {
            for (int i = 0; producing.get(); i++) {
                String body = "async-" + i;
                window.acquire();
                producer.send(session.createTextMessage(body), new CompletionListener() {
                    @Override
                    public void onCompletion(Message message) {
                        asyncSent.add(body);
                        window.release();
                    }

                    @Override
                    public void onException(Message message, Exception exception) {
                        sendFailures.add(exception);
                        window.release();
                    }
                });
            }
        });
    }

    /** Receives from a queue until the connection closes; CLIENT_ACKNOWLEDGE acknowledges every fifth message. */
    private static void consumeContinuously(Connection connection, int mode, String queue, Received received)
            throws JMSException {
        Session session = connection.createSession(mode);
        MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
        List<String> unacknowledged = new ArrayList<>();
        started("consumer-" + queue, () -> {
            while (true) {
                Message m;
                try {
                    m = consumer.receive(TIMEOUT_MILLIS);
                } catch (JMSException closed) {
                    return;
                }
                if (m == null) {
                    continue;
                }
                String body = ((TextMessage) m).getText();
                if (clientAcknowledged.contains(body) && m.getJMSRedelivered()) {
                    acknowledgedThenAgain.add(body);
                }
                received.add(m);
                if (mode == Session.CLIENT_ACKNOWLEDGE) {
                    unacknowledged.add(body);
                    if (unacknowledged.size() == 5) {
                        boolean afterSwitch = masterClosedNanos != 0;
                        try {
                            m.acknowledge();
                            clientAcknowledged.addAll(unacknowledged);
                            if (afterSwitch) {
                                acknowledgedAfterSwitch.incrementAndGet();
                            }
                        } catch (JMSException lost) {
                            acknowledgeFailures.incrementAndGet();
                            LOG.info("acknowledge failed across the switch (the messages come again): {}", lost.toString());
                        }
                        unacknowledged.clear();
                    }
                }
            }
        });
    }

    private interface Body {
        void run() throws Exception;
    }

    private static Thread started(String name, Body body) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            } catch (Exception e) {
                if (name.contains("producer")) {
                    sendFailures.add(e);
                }
                LOG.info("{} ended: {}", name, e.toString());
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : clients) {
            c.close();
        }
        for (Broker b : new Broker[] {promoted, slave, master}) {
            if (b != null) {
                b.close();
            }
        }
        if (nameServer != null) {
            nameServer.close();
        }
    }

    @Test
    void sendsBlockAcrossTheSwitchAndSucceedWithoutAnExceptionReachingTheApplication() {
        assertEquals(List.of(), sendFailures);
        assertTrue(switchMillis > 0 && switchMillis < TIMEOUT_MILLIS, "first send after the switch: " + switchMillis);
    }

    @Test
    void everySendThatReturnedIsDelivered() {
        assertTrue(auto.hasAll(evenOf(syncSent)), "AUTO");
        assertTrue(dupsOk.hasAll(oddOf(syncSent)), "DUPS_OK");
        assertTrue(client.hasAll(asyncSent), "CLIENT (async sends)");
    }

    @Test
    void asyncSendsKeepTheirOrderThroughTheFailover() {
        List<String> first = client.firstArrivals();
        for (int i = 1; i < first.size(); i++) {
            int before = Integer.parseInt(first.get(i - 1).substring("async-".length()));
            int after = Integer.parseInt(first.get(i).substring("async-".length()));
            assertTrue(before < after, "async-" + before + " arrived before async-" + after);
        }
    }

    /**
     * An acknowledge() at the switch may fail once; after it the session no longer holds the lost
     * attachment's messages (the broker delivers them again, flagged) and acknowledges work again.
     */
    @Test
    void clientAcknowledgeFailsAtMostOnceAtTheSwitchAndWorksAfterIt() {
        assertTrue(acknowledgeFailures.get() <= 1, acknowledgeFailures + " acknowledge() calls failed");
        assertTrue(acknowledgedAfterSwitch.get() > 0, "no acknowledge() succeeded after the switch");
    }

    @Test
    void nothingAcknowledgedComesBack() {
        assertEquals(List.of(), acknowledgedThenAgain);
    }

    @Test
    void aTransactionOpenAcrossTheSwitchRollsBackAndTheNextOneCommits() {
        assertTrue(commitAcrossSwitch instanceof TransactionRolledBackException, "commit across: " + commitAcrossSwitch);
        assertEquals("tx-0", committedAfterSwitch, "the rolled-back receive comes again");
    }

    @Test
    void anXaBranchPreparedBeforeTheSwitchIsRecoveredAndCommittedAfterIt() {
        assertTrue(recovered.contains(PREPARED), "recovered: " + recovered);
        assertEquals("xa-prepared", xaCommittedBody);
    }

    @Test
    void aBranchCommittedBeforeTheSwitchIsAnUnknownXidToTheNewMaster() {
        assertEquals(XAException.XAER_NOTA, recommitAfterSwitch);
    }

    @Test
    void aDurableSubscribersUnacknowledgedMessagesComeBackRedeliveredFromTheNewMaster() throws JMSException {
        assertEquals(5, durableAgain.size());
        for (Message m : durableAgain) {
            assertTrue(m.getJMSRedelivered(), "redelivered: " + ((TextMessage) m).getText());
        }
    }
}
