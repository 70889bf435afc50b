package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer follows its broker group's master at once: its periodic discovery is set
 * far beyond the test's time, so only the search its lost connection starts can find the new
 * master. A master and a slave under SYNC; the master closes and the slave comes back as master
 * at a new address.
 */
class ConsumerFailoverTest {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerFailoverTest.class);
    private static final long DISCOVERY_MILLIS = 120_000;
    /** Far below the discovery period; the rest is load on a shared machine. */
    private static final long FOLLOW_BOUND_MILLIS = 10_000;

    @TempDir
    Path root;

    private NameServer nameServer;
    private Broker master;
    private Broker slave;
    private Broker promoted;
    private Connection consuming;
    private Connection producing;

    private BrokerConfig config(Path dir, long brokerId, ReplicationConfig replication) {
        return GroupBrokers.config(nameServer.address(), dir, brokerId, replication, 1);
    }

    private static Broker start(BrokerConfig config) throws Exception {
        return GroupBrokers.start(config);
    }

    @Test
    void aConsumerReceivesFromTheNewMasterWithoutWaitingForDiscovery() throws Exception {
        nameServer = new NameServer(NameServerConfig.defaults().withPort(0));
        nameServer.start();
        ReplicationConfig sync = ReplicationConfig.DEFAULT.withMode(ReplicationConfig.Mode.SYNC, 2);
        master = start(config(root.resolve("master"), 0, sync));
        slave = start(config(root.resolve("slave"), 1, sync.asSlaveOf(master.address())));
        String url = "ramjet://" + nameServer.address();
        consuming = new RamjetConnectionFactory(url + "?discoveryMillis=" + DISCOVERY_MILLIS
                + "&resubscribeMillis=100").createConnection();
        consuming.start();
        Session session = consuming.createSession(Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = session.createConsumer(session.createQueue("follow"));
        try (Connection before = new RamjetConnectionFactory(url).createConnection()) {
            Session s = before.createSession(Session.AUTO_ACKNOWLEDGE);
            s.createProducer(s.createQueue("follow")).send(s.createTextMessage("before"));
        }
        // answered under SYNC with two replicas: the slave holds it and the subscription's state
        assertEquals("before", text(consumer.receive(FOLLOW_BOUND_MILLIS)));

        Path slaveDir = slave.config().dataDir();
        master.close();
        slave.close();
        promoted = start(config(slaveDir, 1, ReplicationConfig.DEFAULT));
        long promotedNanos = System.nanoTime();
        producing = new RamjetConnectionFactory(url).createConnection();
        Session s = producing.createSession(Session.AUTO_ACKNOWLEDGE);
        s.createProducer(s.createQueue("follow")).send(s.createTextMessage("after"));

        Message first = consumer.receive(FOLLOW_BOUND_MILLIS);
        long followMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - promotedNanos);
        LOG.info("new master started -> first message received from it: {} ms", followMillis);
        assertNotNull(first, "nothing from the new master within " + FOLLOW_BOUND_MILLIS + " ms (discovery every "
                + DISCOVERY_MILLIS + " ms)");
        // "before" may come again if its acknowledgement did not reach the slave; "after" must come
        Message after = "after".equals(text(first)) ? first : consumer.receive(FOLLOW_BOUND_MILLIS);
        assertEquals("after", text(after));
        assertTrue(followMillis < FOLLOW_BOUND_MILLIS, followMillis + " ms");
    }

    private static String text(Message m) throws Exception {
        assertNotNull(m, "no message");
        return ((TextMessage) m).getText();
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {consuming, producing, promoted, slave, master, nameServer}) {
            if (c != null) {
                c.close();
            }
        }
    }
}
