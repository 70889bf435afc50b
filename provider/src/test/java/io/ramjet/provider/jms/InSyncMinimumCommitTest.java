package io.ramjet.provider.jms;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionRolledBackException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local transaction's commit on a SYNC master ({@code minInSyncReplicas=2}) whose only slave is
 * gone: the master refuses it before writing anything, the client asks again for its request
 * timeout and then rolls the transaction back, and the application gets a
 * TransactionRolledBackException that names the in-sync set, within a bounded time. Nothing is
 * lost: the message the transaction consumed comes again to the session at once, and once the
 * slave is back to a new consumer, flagged redelivered each time (the rollbacks that followed
 * could not be written either), and none of
 * the messages it sent are delivered (a commit that waited for the records before it, one of
 * them held on the master, ended 'outcome unknown' on the client's timeout and then committed
 * once the slave was back).
 */
class InSyncMinimumCommitTest {

    /** Shorter than the client's request timeout (5 s), so that a send's failure comes back as such. */
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(2);
    /** The client's asking again for its request timeout, the rollback's wait, and a margin for a loaded machine. */
    private static final long COMMIT_BOUND_MILLIS = 20_000;

    @TempDir
    Path root;

    private NameServer nameServer;
    private Broker master;
    private Broker slave;

    @AfterEach
    void stop() {
        GroupBrokers.closeAll(nameServer, slave, master);
    }

    private Broker startSlave(ReplicationConfig sync) throws Exception {
        return GroupBrokers.start(GroupBrokers.config(nameServer.address(), root.resolve("slave"), 1,
                sync.asSlaveOf(master.address()), 1));
    }

    @Test
    void aCommitWhileTheInSyncSetIsBelowItsMinimumRollsBackNamingTheCauseAndLosesNothing() throws Exception {
        nameServer = new NameServer(NameServerConfig.defaults().withPort(0));
        nameServer.start();
        ReplicationConfig sync = new ReplicationConfig(ReplicationConfig.Role.MASTER, null,
                ReplicationConfig.Mode.SYNC, 2, Duration.ofMinutes(5), SYNC_TIMEOUT, 0);
        master = GroupBrokers.start(GroupBrokers.config(nameServer.address(), root.resolve("master"), 0, sync, 1));
        slave = startSlave(sync);
        await().atMost(Duration.ofSeconds(60)).until(() -> master.inSyncReplicas().equals(Set.of(1L)));
        RamjetConnectionFactory factory = new RamjetConnectionFactory("ramjet://" + nameServer.address());
        try (Connection plain = factory.createConnection()) {
            Session session = plain.createSession(false, Session.AUTO_ACKNOWLEDGE);
            session.createProducer(session.createQueue("orders")).send(session.createTextMessage("before"));
        }

        TransactionRolledBackException refused;
        long tookMillis;
        try (Connection connection = factory.createConnection()) {
            connection.start();
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            Queue orders = session.createQueue("orders");
            MessageConsumer consumer = session.createConsumer(orders);
            Message consumed = consumer.receive(30_000);
            assertNotNull(consumed, "the message sent before");
            MessageProducer producer = session.createProducer(orders);
            producer.send(session.createTextMessage("tx-1"));

            slave.close();
            slave = null;
            await().atMost(Duration.ofSeconds(30)).until(() -> master.inSyncReplicas().isEmpty());
            // stored on the master only, so that the records before the commit wait for a slave
            producer.send(session.createTextMessage("tx-2"));

            long began = System.nanoTime();
            refused = assertThrows(TransactionRolledBackException.class, session::commit);
            tookMillis = (System.nanoTime() - began) / 1_000_000;

            // the rollback after the refusal could not be written either, yet the session gets
            // the consumed message again at once, flagged (the close rolls this receipt back too)
            Message again = consumer.receive(10_000);
            assertNotNull(again, "the rolled-back message comes again to its session");
            assertEquals("before", ((TextMessage) again).getText());
            assertTrue(again.getJMSRedelivered(), "flagged redelivered in its session");
        }
        assertTrue(tookMillis < COMMIT_BOUND_MILLIS, "the commit ended after " + tookMillis + " ms");
        assertTrue(refused.getMessage().contains("in sync"), "names the in-sync set: " + refused.getMessage());

        slave = startSlave(sync);
        await().atMost(Duration.ofSeconds(60)).until(() -> master.inSyncReplicas().equals(Set.of(1L)));
        List<String> received = new ArrayList<>();
        Message repeat = null;
        try (Connection connection = factory.createConnection()) {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue orders = session.createQueue("orders");
            session.createProducer(orders).send(session.createTextMessage("after"));
            MessageConsumer consumer = session.createConsumer(orders);
            while (!received.contains("after")) {
                Message m = consumer.receive(30_000);
                assertNotNull(m, "received so far: " + received);
                received.add(((TextMessage) m).getText());
                if (received.size() == 1) {
                    repeat = m;
                }
            }
        }
        assertEquals(List.of("before", "after"), received, "the consumed message again, none the transaction sent");
        assertTrue(repeat.getJMSRedelivered(), "the consumed message comes again flagged redelivered");
        assertTrue(repeat.getIntProperty("JMSXDeliveryCount") >= 2,
                "delivery count " + repeat.getIntProperty("JMSXDeliveryCount"));
    }
}
