package io.ramjet.server.broker.assembly;

import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.BrokerList;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorHeader;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.server.broker.console.ClusterView;
import io.ramjet.server.broker.replication.InSyncReplicas;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The console's cluster view, read when asked: this broker's group as it knows it (a master's
 * slaves from its {@link InSyncReplicas}) and, asked of every configured NameServer in turn
 * (each within {@link #TIMEOUT}), the brokers it routes clients to. A NameServer that does not
 * answer is shown with the reason; none is asked when the broker has no client for them (a
 * slave, or no NameServer configured). Called on the console's one HTTP thread.
 */
public final class ClusterOverview implements Supplier<ClusterView> {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final AssemblyConfig config;
    private final Supplier<String> address;
    private final IntSupplier epoch;
    private final LongSupplier logEnd;
    private final InSyncReplicas inSync;
    private final Supplier<RemotingClient> nameServers;

    /** @param nameServers the client the broker registers with, null when it has none */
    public ClusterOverview(AssemblyConfig config, Supplier<String> address, IntSupplier epoch, LongSupplier logEnd,
                    InSyncReplicas inSync, Supplier<RemotingClient> nameServers) {
        this.config = config;
        this.address = address;
        this.epoch = epoch;
        this.logEnd = logEnd;
        this.inSync = inSync;
        this.nameServers = nameServers;
    }

    @Override
    public ClusterView get() {
        return new ClusterView(group(), nameServers());
    }

    private ClusterView.Group group() {
        boolean slave = config.replication().slave();
        long end = logEnd.getAsLong();
        List<ClusterView.Slave> slaves = new ArrayList<>();
        if (!slave) {
            Set<Long> synced = inSync.inSync();
            for (Map.Entry<Long, Long> e : inSync.flushedOffsets().entrySet()) {
                slaves.add(new ClusterView.Slave(e.getKey(), e.getValue(), Math.max(0, end - e.getValue()),
                        synced.contains(e.getKey())));
            }
        }
        return new ClusterView.Group(config.clusterName(), config.brokerName(),
                slave ? config.brokerId() : BrokerInfo.MASTER_ID, address.get(), slave ? "SLAVE" : "MASTER",
                epoch.getAsInt(), end, slave ? config.replication().masterAddress() : null, slaves);
    }

    private List<ClusterView.NameServer> nameServers() {
        RemotingClient client = nameServers.get();
        List<ClusterView.NameServer> out = new ArrayList<>();
        for (String nameServer : config.nameServers()) {
            if (client == null) {
                out.add(new ClusterView.NameServer(nameServer, "not asked: this broker does not register with"
                        + " NameServers", List.of()));
                continue;
            }
            try {
                out.add(new ClusterView.NameServer(nameServer, null, registered(client, nameServer)));
            } catch (ExecutionException | TimeoutException | RuntimeException e) {
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                out.add(new ClusterView.NameServer(nameServer, "no answer: " + cause.getMessage(), List.of()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                out.add(new ClusterView.NameServer(nameServer, "interrupted", List.of()));
            }
        }
        return out;
    }

    private static List<ClusterView.Registered> registered(RemotingClient client, String nameServer)
            throws ExecutionException, TimeoutException, InterruptedException {
        Frame answer = client.invoke(nameServer, Frame.request(CommandCode.LIST_BROKERS, null), TIMEOUT)
                .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        if (answer.isError()) {
            throw new IllegalStateException(answer.header(ErrorHeader.class).message());
        }
        return answer.header(BrokerList.class).brokers().stream()
                .sorted(Comparator.comparing(BrokerInfo::clusterName).thenComparing(BrokerInfo::brokerName)
                        .thenComparingLong(BrokerInfo::brokerId))
                .map(b -> new ClusterView.Registered(b.clusterName(), b.brokerName(), b.brokerId(), b.address()))
                .toList();
    }
}
