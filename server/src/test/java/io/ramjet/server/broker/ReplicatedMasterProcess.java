package io.ramjet.server.broker;

import io.ramjet.server.broker.replication.ReplicationConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A replicating master in a child JVM for kill -9 tests: prints its port, then serves until
 * killed. Arguments: the data directory, the replication mode, minInSyncReplicas.
 */
public final class ReplicatedMasterProcess {

    private ReplicatedMasterProcess() {
    }

    public static void main(String[] args) throws Exception {
        Broker broker = BrokerTestSupport.start(BrokerTestSupport.config(Path.of(args[0])).withReplication(
                new ReplicationConfig(ReplicationConfig.Role.MASTER, null, ReplicationConfig.Mode.valueOf(args[1]),
                        Integer.parseInt(args[2]), Duration.ofSeconds(10), Duration.ofSeconds(10), 0)));
        System.out.println("PORT " + broker.port());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    /** Starts one and returns it once it listens; its address is {@code 127.0.0.1:} + {@link Started#port()}. */
    static Started start(Path dataDir, ReplicationConfig.Mode mode, int minInSyncReplicas) throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ReplicatedMasterProcess.class.getName(),
                dataDir.toString(), mode.name(), Integer.toString(minInSyncReplicas))
                .redirectError(ProcessBuilder.Redirect.appendTo(Path.of("target", "replicated-master.log").toFile()))
                .start();
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("PORT ")) {
            // log lines before the port
        }
        if (line == null) {
            child.destroyForcibly();
            throw new IllegalStateException("the child master died before listening; see target/replicated-master.log");
        }
        return new Started(child, Integer.parseInt(line.substring(5).trim()));
    }

    record Started(Process process, int port) {
        String address() {
            return "127.0.0.1:" + port;
        }
    }
}
