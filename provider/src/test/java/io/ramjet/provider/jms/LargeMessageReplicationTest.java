package io.ramjet.provider.jms;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Session;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large message's chunks replicate with the CommitLog: sent to a master under SYNC replication,
 * it is received whole from its slave restarted as master after the master is gone.
 */
class LargeMessageReplicationTest {

    @TempDir
    Path root;

    @Test
    void aLargeMessageSentToTheMasterIsReceivedWholeFromItsPromotedSlave() throws Exception {
        NameServer nameServer = new NameServer(NameServerConfig.defaults().withPort(0));
        nameServer.start();
        Broker promoted = null;
        byte[] body = new byte[5 << 20];
        new Random(11).nextBytes(body);
        try {
            ReplicationConfig sync = ReplicationConfig.DEFAULT.withMode(ReplicationConfig.Mode.SYNC, 2);
            Broker master = GroupBrokers.start(GroupBrokers.config(nameServer.address(), root.resolve("master"), 0,
                    sync, 1));
            Broker slave = GroupBrokers.start(GroupBrokers.config(nameServer.address(), root.resolve("slave"), 1,
                    sync.asSlaveOf(master.address()), 1));
            try {
                await("the slave in sync").atMost(Duration.ofSeconds(30))
                        .until(() -> master.inSyncReplicas().contains(1L));
                String url = "ramjet://" + nameServer.address() + "?largeMessageSize=65536";
                try (Connection connection = new RamjetConnectionFactory(url).createConnection()) {
                    Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
                    BytesMessage m = session.createBytesMessage();
                    m.writeBytes(body);
                    session.createProducer(session.createQueue("large.replicated")).send(m);
                }
                master.close();
            } finally {
                slave.close();
            }
            promoted = GroupBrokers.start(GroupBrokers.config(nameServer.address(),
                    root.resolve("slave"), 1, ReplicationConfig.DEFAULT, 1));
            String url = "ramjet://" + nameServer.address() + "?largeMessageSize=65536";
            try (Connection connection = new RamjetConnectionFactory(url).createConnection()) {
                connection.start();
                Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
                BytesMessage got = (BytesMessage) session.createConsumer(session.createQueue("large.replicated"))
                        .receive(30_000);
                byte[] read = new byte[(int) got.getBodyLength()];
                got.readBytes(read);
                assertArrayEquals(body, read, "the body from the promoted slave");
            }
        } finally {
            if (promoted != null) {
                promoted.close();
            }
            nameServer.close();
        }
    }
}
