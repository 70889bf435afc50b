package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A group starting cold (a SYNC master with {@code minInSyncReplicas=2} on a fresh store, its
 * slave still starting, as on a loaded machine): a client that starts once the master is
 * registered creates its consumer and producer and sends, waiting for the group rather than
 * failing after the request timeout.
 */
class GroupStartTest {

    /** Past the client's request timeout and the master's replicaSyncTimeout (5 s each). */
    private static final long SLAVE_LATE_MILLIS = 6_500;

    @TempDir
    Path root;

    private NameServer nameServer;
    private Broker master;
    private Broker slave;

    @AfterEach
    void stop() {
        GroupBrokers.closeAll(nameServer, slave, master);
    }

    @Test
    void aClientOfAGroupWhoseSlaveIsStillStartingWaitsForTheGroup() throws Exception {
        nameServer = new NameServer(NameServerConfig.defaults().withPort(0));
        nameServer.start();
        ReplicationConfig sync = ReplicationConfig.DEFAULT.withMode(ReplicationConfig.Mode.SYNC, 2);
        master = GroupBrokers.start(GroupBrokers.config(nameServer.address(), root.resolve("master"), 0, sync, 2));
        CompletableFuture<Broker> late = CompletableFuture.supplyAsync(() -> {
            try {
                return GroupBrokers.start(GroupBrokers.config(nameServer.address(), root.resolve("slave"), 1,
                        sync.asSlaveOf(master.address()), 2));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, CompletableFuture.delayedExecutor(SLAVE_LATE_MILLIS, TimeUnit.MILLISECONDS));
        try {
            RamjetConnectionFactory factory = new RamjetConnectionFactory("ramjet://" + nameServer.address());
            try (Connection connection = factory.createConnection()) {
                connection.start();
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Queue queue = session.createQueue("cold-start");
                MessageConsumer consumer = session.createConsumer(queue);
                MessageProducer producer = session.createProducer(queue);
                producer.send(session.createTextMessage("first"));
                TextMessage received = (TextMessage) consumer.receive(30_000);
                assertNotNull(received, "the first message");
                assertEquals("first", received.getText());
            }
        } finally {
            slave = late.get(60, TimeUnit.SECONDS);
        }
    }
}
