package io.ramjet.reliability;

import io.ramjet.protocol.command.AdminQuery;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.CreateDestinationRequest;
import io.ramjet.model.DestinationKind;
import io.ramjet.model.stats.DestinationStats;
import io.ramjet.protocol.command.DestinationStatsList;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A scaled-out cluster as separate processes: NameServers ({@code Launcher namesrv}) and broker
 * groups of one master each ({@code Launcher broker --broker-name G}), every group registered
 * with every NameServer. Ports and data directories are picked once and kept across restarts.
 * Not thread-safe: one thread drives it at a time.
 */
final class ScaleCluster implements AutoCloseable {

    private static final Duration REQUEST = Duration.ofSeconds(2);

    private final String name;
    private final Path dataDir;
    private final List<ChildJvm> nameServers = new ArrayList<>();
    private final List<Integer> nameServerPorts = new ArrayList<>();
    private final Map<String, ChildJvm> groups = new LinkedHashMap<>();
    private final Map<String, Integer> groupPorts = new LinkedHashMap<>();
    private final RemotingClient remoting = new RemotingClient(RemotingClientConfig.defaults().withIoThreads(1)
            .withRequestTimeout(REQUEST));

    /** Broker keys every group's broker starts with ({@code -c}), or null for none. */
    private Path brokerKeys;

    ScaleCluster(String name, int nameServerCount) throws IOException {
        this.name = name;
        this.dataDir = Files.createTempDirectory("ramjet-rel-" + name + "-");
        for (int port : ChildJvm.freePorts(nameServerCount)) {
            nameServerPorts.add(port);
            nameServers.add(new ChildJvm(name + "-namesrv-" + nameServers.size()));
        }
    }

    /** {@code host:port,...} of every NameServer. */
    String nameServerList() {
        return String.join(",", nameServerPorts.stream().map(p -> "127.0.0.1:" + p).toList());
    }

    String url(String options) {
        return "ramjet://" + nameServerList() + "?" + options;
    }

    /** Starts every NameServer and returns once each accepts connections. */
    void startNameServers() throws IOException {
        for (int i = 0; i < nameServers.size(); i++) {
            nameServers.get(i).start(List.of("namesrv", "-p", Integer.toString(nameServerPorts.get(i))));
        }
        for (int i = 0; i < nameServers.size(); i++) {
            int port = nameServerPorts.get(i);
            nameServers.get(i).awaitReady("NameServer port " + port + " accepting", ChildJvm.START_TIMEOUT,
                    () -> ChildJvm.accepts(port));
        }
    }

    void killNameServer(int index) throws InterruptedException {
        nameServers.get(index).end(true);
    }

    void restartNameServer(int index) throws IOException {
        int port = nameServerPorts.get(index);
        nameServers.get(index).start(List.of("namesrv", "-p", Integer.toString(port)));
        nameServers.get(index).awaitReady("NameServer port " + port + " accepting", ChildJvm.START_TIMEOUT,
                () -> ChildJvm.accepts(port));
    }

    /** Every group's broker starts with these keys (as {@code Launcher broker -c FILE}). */
    void brokerKeys(java.util.Properties keys) throws IOException {
        brokerKeys = dataDir.resolve("broker.properties");
        try (java.io.Writer out = Files.newBufferedWriter(brokerKeys)) {
            keys.store(out, "every group's broker");
        }
    }

    /** Starts the groups' brokers (new ones on fresh ports) and returns once every live NameServer lists each. */
    void startGroups(String... names) throws IOException {
        for (String group : names) {
            if (!groups.containsKey(group)) {
                groups.put(group, new ChildJvm(name + "-" + group));
                groupPorts.put(group, ChildJvm.freePorts(1)[0]);
            }
            List<String> args = new ArrayList<>(List.of("broker", "-p", Integer.toString(groupPorts.get(group)),
                    "--data-dir", dataDir.resolve(group).toString(), "--broker-name", group, "-n", nameServerList()));
            if (brokerKeys != null) {
                args.addAll(List.of("-c", brokerKeys.toString()));
            }
            groups.get(group).start(args);
        }
        for (String group : names) {
            groups.get(group).awaitReady("broker " + group + " registered with every live NameServer",
                    ChildJvm.START_TIMEOUT, () -> registered(address(group)));
        }
    }

    /** {@code kill -9} of the group's broker: nothing flushed, nothing unregistered. */
    void killGroup(String group) throws InterruptedException {
        groups.get(group).end(true);
    }

    String address(String group) {
        return "127.0.0.1:" + groupPorts.get(group);
    }

    /** Places a queue on the group (its master creates it and announces it to the NameServers). */
    void createQueue(String group, String queue) throws Exception {
        Frame response = remoting.invokeSync(address(group), Frame.request(CommandCode.CREATE_DESTINATION,
                new CreateDestinationRequest(queue, DestinationKind.QUEUE, 0)), REQUEST);
        if (response.isError()) {
            throw new IllegalStateException("creating " + queue + " on " + group + " refused");
        }
    }

    /** How many messages the group's master has stored for the queue, 0 when it does not answer. */
    long enqueued(String group, String queue) {
        try {
            Frame response = remoting.invokeSync(address(group), Frame.request(CommandCode.ADMIN_DESTINATIONS,
                    new AdminQuery(queue)), REQUEST);
            return response.isError() ? 0 : response.header(DestinationStatsList.class).destinations().stream()
                    .mapToLong(DestinationStats::enqueued).sum();
        } catch (Exception e) {
            return 0;
        }
    }

    /** The last lines of every process's log, for a failure message. */
    String logTails(int lines) {
        StringBuilder tails = new StringBuilder();
        nameServers.forEach(jvm -> tails.append("\n---- ").append(jvm.name()).append('\n').append(jvm.logTail(lines)));
        groups.values().forEach(jvm -> tails.append("\n---- ").append(jvm.name()).append('\n')
                .append(jvm.logTail(lines)));
        return tails.toString();
    }

    private boolean registered(String address) {
        for (int i = 0; i < nameServers.size(); i++) {
            if (!nameServers.get(i).isAlive()) {
                continue;
            }
            try {
                List<BrokerInfo> brokers = new NameServerClient(remoting, List.of("127.0.0.1:" + nameServerPorts.get(i)),
                        REQUEST).listBrokers().get(REQUEST.toMillis(), TimeUnit.MILLISECONDS);
                if (brokers.stream().noneMatch(b -> b.address().equals(address))) {
                    return false;
                }
            } catch (Exception e) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        groups.values().forEach(ChildJvm::killQuietly);
        nameServers.forEach(ChildJvm::killQuietly);
        remoting.close();
        TempDirs.delete(dataDir);
    }
}
