package io.ramjet.server.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.server.broker.assembly.NameServerRegistration;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a broker tells the NameServers: only a master registers, as
 * {@link BrokerInfo#MASTER_ID} whatever its configured id, so a slave restarted as master takes
 * its group's route at its new epoch, and the old master, back at an older epoch, is refused.
 */
class MasterRegistrationTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    Path masterDir;
    @TempDir
    Path slaveDir;

    private static BrokerConfig config(Path dir, NameServer nameServer, long brokerId) {
        return BrokerTestSupport.config(dir).toBuilder().brokerName("g1").brokerId(brokerId)
                .nameServers(List.of(nameServer.address())).build();
    }

    @Test
    void aSlaveRestartedAsMasterTakesTheGroupsRouteAsMasterIdAtItsNewEpoch() throws Exception {
        NameServer nameServer = new NameServer(NameServerConfig.defaults().withPort(0));
        nameServer.start();
        try (RemotingClient remoting = new RemotingClient(RemotingClientConfig.defaults())) {
            NameServerClient names = new NameServerClient(remoting, List.of(nameServer.address()), TIMEOUT);
            Broker master = BrokerTestSupport.start(config(masterDir, nameServer, 0));
            Broker slave = BrokerTestSupport.start(config(slaveDir, nameServer, 1)
                    .withReplication(ReplicationConfig.DEFAULT.asSlaveOf(master.address())));
            assertEquals(List.of(NameServerRegistration.brokerInfo(master.config(), master.address())),
                    names.listBrokers().get(10, TimeUnit.SECONDS),
                    "the slave registers nowhere");
            // a slave learns its master's epoch with the first bytes it copies
            ReplicationTest.send(master.address(), "m", 10);
            ReplicationTest.awaitCaughtUp(slave, master);
            slave.close();

            try (Broker promoted = BrokerTestSupport.start(config(slaveDir, nameServer, 1))) {
                BrokerInfo expected = new BrokerInfo(master.config().clusterName(), "g1", BrokerInfo.MASTER_ID,
                        promoted.address());
                assertEquals(List.of(expected), names.listBrokers().get(10, TimeUnit.SECONDS),
                        "the promoted slave's higher epoch replaced the live old master");
                assertEquals(2, promoted.epochs().size());
            } finally {
                master.close();
                nameServer.close();
            }
        }
    }
}
