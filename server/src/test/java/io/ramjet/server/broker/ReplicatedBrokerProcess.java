package io.ramjet.server.broker;

import io.ramjet.server.broker.replication.ReplicationConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A replicating broker in a child JVM for kill -9 tests: prints its port, then serves until
 * killed. Arguments: the data directory, the replication mode, minInSyncReplicas, and for a
 * slave its master's address.
 */
public final class ReplicatedBrokerProcess {

    private ReplicatedBrokerProcess() {
    }

    public static void main(String[] args) throws Exception {
        ReplicationConfig master = new ReplicationConfig(ReplicationConfig.Role.MASTER, null,
                ReplicationConfig.Mode.valueOf(args[1]), Integer.parseInt(args[2]), Duration.ofSeconds(10),
                Duration.ofSeconds(10), 0);
        BrokerConfig config = BrokerTestSupport.config(Path.of(args[0]));
        Broker broker = BrokerTestSupport.start(args.length > 3
                ? config.toBuilder().brokerId(1).build().withReplication(master.asSlaveOf(args[3]))
                : config.withReplication(master));
        System.out.println("PORT " + broker.port());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    /**
     * Starts one (a slave of {@code masterAddress}, brokerId 1, unless that is null) and returns it
     * once it listens.
     */
    static BrokerProcess.Started start(Path dataDir, ReplicationConfig.Mode mode, int minInSyncReplicas,
                                       String masterAddress) throws Exception {
        List<String> command = new ArrayList<>(List.of(BrokerProcess.java(), "-cp", System.getProperty("java.class.path"),
                ReplicatedBrokerProcess.class.getName(), dataDir.toString(), mode.name(),
                Integer.toString(minInSyncReplicas)));
        if (masterAddress != null) {
            command.add(masterAddress);
        }
        return BrokerProcess.startChild(command, "replicated-broker.log");
    }
}
