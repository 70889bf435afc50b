package io.ramjet.bench.peer;

import io.ramjet.bench.workload.Workloads;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A peer scaled out over several broker groups on this machine, every broker in a JVM of its own
 * with the heap of the others, all registered with the first JVM's NameServer, so that a
 * destination lives on every group and the clients spread over them:
 * <ul>
 *   <li>{@code ramjet-groupsN}: {@link RamjetServerMain} (a NameServer and group
 *       {@code broker-a}) and N-1 more groups ({@link RamjetGroupMain}); destinations are
 *       auto-created on every group's master, each with its default queue count, and a
 *       connection's sessions spread over every queue of every group;</li>
 *   <li>{@code rocketmq-brokersN}: the rocketmq peer's two JVMs (a {@code SYNC_FLUSH} one for the
 *       persistent rows, an {@code ASYNC_FLUSH} one for the others), each with N-1 more master
 *       brokers of its flush type ({@link RocketMqServerMain} joining its NameServer); a topic is
 *       created through {@code TBW102} on every master, 4 queues each, and RocketMQ's producer
 *       rotates over every queue of every broker.</li>
 * </ul>
 * The heap, RSS and disk figures are the first broker's; the CPU rows count every JVM.
 */
public final class ScaledPeer extends ProcessGroupPeer {

    private static final Duration REGISTRATION_PATIENCE = Duration.ofSeconds(60);

    private final Path primaryData;
    private final Clients workloads;

    /** Starts the peer's client with so many producers and consumers. */
    private interface Clients {
        Workloads start(int producers, int consumers) throws IOException;
    }

    private ScaledPeer(String name, TemporaryDirectory data, List<PeerProcess> processes, Path primaryData,
                       Clients workloads) {
        super(name, data, processes);
        this.primaryData = primaryData;
        this.workloads = workloads;
    }

    /** {@code ramjet-groups<groups>}: ready once the NameServer lists every group's master. */
    public static ScaledPeer ramjet(int groups, String heap, int segmentMiB) throws IOException {
        String name = "ramjet-groups" + groups;
        String[] segment = segmentMiB > 0 ? new String[] {Integer.toString(segmentMiB)} : new String[0];
        TemporaryDirectory data = new TemporaryDirectory(name + "-peer");
        List<PeerProcess> processes = new ArrayList<>();
        try {
            PeerProcess first = PeerProcess.start(RamjetServerMain.class, heap, PeerClassPath.distribution("ramjet"), List.of(),
                    data.path().resolve("group-1"), segment);
            processes.add(first);
            String nameServer = "127.0.0.1:" + first.port();
            for (int g = 2; g <= groups; g++) {
                processes.add(PeerProcess.start(RamjetGroupMain.class, heap, PeerClassPath.distribution("ramjet"),
                        List.of("-D" + RamjetGroupMain.BROKER_NAME + "=broker-" + (char) ('a' + g - 1),
                                "-D" + RamjetGroupMain.NAME_SERVER + "=" + nameServer),
                        data.path().resolve("group-" + g), segment));
            }
            awaitMasters(nameServer, groups);
            JmsClient client = JmsClient.ramjet("ramjet://" + nameServer);
            return new ScaledPeer(name, data, processes, data.path().resolve("group-1"), client::process);
        } catch (IOException | RuntimeException e) {
            stop(processes, data);
            throw e;
        }
    }

    /** {@code rocketmq-brokers<brokers>}: each flush type's NameServer with that many masters. */
    public static ScaledPeer rocketMq(int brokers, String heap) throws IOException {
        String name = "rocketmq-brokers" + brokers;
        TemporaryDirectory data = new TemporaryDirectory(name + "-peer");
        List<PeerProcess> processes = new ArrayList<>();
        try {
            List<String> nameServers = new ArrayList<>();
            for (String flush : List.of("SYNC_FLUSH", "ASYNC_FLUSH")) {
                PeerProcess first = RocketMqPeer.broker(heap, data, flush.toLowerCase() + "-1", flush, List.of());
                processes.add(first);
                String nameServer = "127.0.0.1:" + first.port();
                nameServers.add(nameServer);
                for (int b = 2; b <= brokers; b++) {
                    processes.add(RocketMqPeer.broker(heap, data, flush.toLowerCase() + "-" + b, flush,
                            List.of("-D" + RocketMqServerMain.JOIN_NAME_SERVER + "=" + nameServer,
                                    "-D" + RocketMqServerMain.BROKER_NAME + "=bench-broker-" + b)));
                }
            }
            Path clientLogs = Files.createDirectories(data.path().resolve("client-logs"));
            return new ScaledPeer(name, data, processes, data.path().resolve("sync_flush-1"),
                    (producers, consumers) -> RocketMqPeer.client(nameServers, clientLogs, producers, consumers));
        } catch (IOException | RuntimeException e) {
            stop(processes, data);
            throw e;
        }
    }

    /** Waits until the NameServer lists {@code masters} masters. */
    private static void awaitMasters(String nameServer, int masters) throws IOException {
        long deadline = System.nanoTime() + REGISTRATION_PATIENCE.toNanos();
        try (RemotingClient remoting = new RemotingClient(RemotingClientConfig.defaults().withIoThreads(1))) {
            NameServerClient client = new NameServerClient(remoting, List.of(nameServer), Duration.ofSeconds(2));
            while (System.nanoTime() - deadline < 0) {
                if (client.listBrokers().join().stream().filter(BrokerInfo::isMaster).count() >= masters) {
                    return;
                }
                LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
            }
        }
        throw new IOException("fewer than " + masters + " masters registered within " + REGISTRATION_PATIENCE);
    }

    @Override
    public Workloads workloads(int producers, int consumers) throws IOException {
        return workloads.start(producers, consumers);
    }

    @Override
    public long liveHeapBytes() throws IOException {
        return processes().get(0).liveHeapBytes();
    }

    @Override
    public long diskBytes() throws IOException {
        return DiskUsage.of(primaryData);
    }

    @Override
    public long residentBytes() {
        return processes().get(0).residentBytes();
    }
}
