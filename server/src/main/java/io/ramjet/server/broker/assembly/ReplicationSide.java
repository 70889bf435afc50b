package io.ramjet.server.broker.assembly;

import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ReplicaHandshakeResponse;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.server.broker.processor.Refusals;
import io.ramjet.server.broker.processor.MasterExchange;
import io.ramjet.server.broker.processor.ReplicationProcessor;
import io.ramjet.server.broker.replication.EpochFile;
import io.ramjet.server.broker.replication.InSyncReplicas;
import io.ramjet.server.broker.replication.ReplicaFetcher;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.broker.replication.ReplicationControl;
import io.ramjet.server.cluster.ClusterIntroduction;
import io.ramjet.server.cluster.ClusterMembership;
import io.ramjet.server.remoting.RemotingServer;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.StoreConfig;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The broker's replication: the epoch history, a master's in-sync set and the fetches it serves
 * its slaves, a slave's join with its master and its fetcher. {@link #open} runs before the store
 * opens (a slave truncates a divergent tail), {@link #start} once the server is bound.
 */
public final class ReplicationSide {

    /** How long a slave's start waits for its master to answer the handshake. */
    private static final Duration MASTER_PATIENCE = Duration.ofSeconds(30);

    private final AssemblyConfig config;
    private final StoreConfig storeConfig;
    private final ReplicationControl control;
    private final BrokerThreads threads;
    private EpochFile epochs;
    private InSyncReplicas inSyncReplicas;
    private RemotingClient replicaRemoting;
    private volatile ReplicaFetcher replicaFetcher;
    /** Bytes written by the fetchers of earlier masters ({@link #follow}). */
    private volatile long bytesReplicatedBefore;
    /** The master a slave follows: the configured one, then each {@link #follow} moved it to. */
    private volatile String masterAddress;

    public ReplicationSide(AssemblyConfig config, StoreConfig storeConfig, ReplicationControl control, BrokerThreads threads) {
        this.config = config;
        this.storeConfig = storeConfig;
        this.control = control;
        this.threads = threads;
    }

    /** This broker's proof of membership to another broker, made with the cluster secret. */
    static ClusterIntroduction introduction(AssemblyConfig config) {
        return new ClusterIntroduction(config.clusterIdentity(), config.brokerName(), config.brokerId());
    }

    /** Reads the epoch history and, on a slave, joins the master: before the store opens. */
    public void open() {
        ReplicationConfig replication = config.replication();
        epochs = new EpochFile(config.dataDir(), storeConfig.forceRecorder());
        inSyncReplicas = new InSyncReplicas(replication, System::nanoTime, control.inSyncCommit());
        masterAddress = replication.masterAddress();
        if (replication.slave()) {
            joinMaster();
        }
    }

    /** A slave's handshake with its master, and truncation of a divergent tail, before the store opens. */
    private void joinMaster() {
        if (config.clusterIdentity() == null) {
            throw new IllegalStateException("slave " + config.brokerName() + "/" + config.brokerId() + " has no"
                    + " cluster secret to prove to its master: set clusterSecret (or nameServerSecret) on every broker"
                    + " of the group");
        }
        replicaRemoting = new RemotingClient(RemotingClientConfig.defaults().withTls(config.tls().client()));
        try {
            SlaveJoin.join(config, storeConfig, epochs, replicaRemoting, introduction(config), MASTER_PATIENCE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted joining master " + config.replication().masterAddress(), e);
        } catch (RuntimeException e) {
            replicaRemoting.close();
            replicaRemoting = null;
            throw e;
        }
    }

    /** A master serves its slaves' fetches and keeps its in-sync set; a slave starts fetching. */
    public void start(RemotingServer server, MessageStore store, ClusterMembership members) {
        if (config.replication().slave()) {
            startFetching(store);
            return;
        }
        ReplicationProcessor replication = new ReplicationProcessor(store, epochs, inSyncReplicas, members,
                config.brokerName(), config.brokerId(), threads.timer(), threads.clusterRequests());
        server.registerProcessor(CommandCode.REPLICA_HANDSHAKE, Refusals.mapped(replication::handshake),
                threads.clusterRequests());
        server.registerAsyncProcessor(CommandCode.REPLICA_FETCH, Refusals.mappedAsync(replication::fetch),
                threads.clusterRequests());
        long period = Math.max(10, Math.min(config.replication().maxLag().toMillis(),
                config.replication().syncTimeout().toMillis()) / 10);
        threads.timer().scheduleWithFixedDelay(inSyncReplicas::check, period, period, TimeUnit.MILLISECONDS);
    }

    private void startFetching(MessageStore store) {
        replicaFetcher = new ReplicaFetcher(new MasterExchange(replicaRemoting, masterAddress, config.brokerId(),
                introduction(config)), store, epochs, ReplicaFetcher.Settings.DEFAULT);
        replicaFetcher.start();
    }

    /**
     * A slave's move to another master while its store stays open: it stops fetching, handshakes
     * with {@code master}, and fetches from it if this log is a prefix of that master's (every
     * record it holds, that master holds at the same offset in the same epoch), as the other
     * slaves of a dead master are of the slave elected in its place, the one whose log reaches
     * furthest. A log that runs past the point where the two agree is left as it is: only a slave
     * that opens its store may truncate, since its replayed state holds the records to be cut.
     *
     * @return false, fetching from nobody, if this log must be truncated to follow {@code master},
     * or if the fetcher did not stop; the caller then reopens the broker as slave of {@code master}
     * @throws IllegalStateException if {@code master} cannot be reached within {@code patience}
     *                               or this store cannot follow it
     */
    public boolean follow(String master, MessageStore store, Duration patience) throws InterruptedException {
        ReplicaFetcher fetcher = replicaFetcher;
        if (fetcher == null || !fetcher.stop()) {
            return false;
        }
        replicaFetcher = null;
        bytesReplicatedBefore += fetcher.bytesReplicated();
        // its fetch in flight to the old master is abandoned with its connections
        replicaRemoting.close();
        replicaRemoting = new RemotingClient(RemotingClientConfig.defaults().withTls(config.tls().client()));
        ReplicaHandshakeResponse answer = SlaveJoin.handshake(config, replicaRemoting, master, introduction(config),
                patience);
        long end = store.maxPhysicalOffset();
        if (SlaveJoin.agreement(storeConfig, epochs, end, master, answer) < end) {
            return false;
        }
        masterAddress = master;
        startFetching(store);
        return true;
    }

    /** The master a slave follows now; null on a master. */
    public String masterAddress() {
        return masterAddress;
    }

    public EpochFile epochs() {
        return epochs;
    }

    /** What a master's appends wait for under synchronous replication. */
    public InSyncReplicas inSync() {
        return inSyncReplicas;
    }

    /** The slaves in this master's in-sync set now, by broker id (empty on a slave). */
    public Set<Long> inSyncReplicas() {
        return inSyncReplicas.inSync();
    }

    /** This broker's epoch history (epoch and first CommitLog offset), oldest first. */
    public List<io.ramjet.model.EpochEntry> epochEntries() {
        return epochs.entries();
    }

    /** Bytes a slave has written from its master since start; 0 on a master. */
    public long bytesReplicated() {
        ReplicaFetcher fetcher = replicaFetcher;
        return bytesReplicatedBefore + (fetcher == null ? 0 : fetcher.bytesReplicated());
    }

    /** For a slave, whether its master answered its last fetch; true for a master. */
    public boolean masterReachable() {
        ReplicaFetcher fetcher = replicaFetcher;
        return fetcher == null || fetcher.masterReachable();
    }

    /** Stops fetching (a slave) and checking the in-sync set (a master). */
    public void close() {
        if (replicaFetcher != null) {
            replicaFetcher.close();
            replicaFetcher = null;
        }
        if (replicaRemoting != null) {
            replicaRemoting.close();
            replicaRemoting = null;
        }
        if (inSyncReplicas != null) {
            inSyncReplicas.stop();
        }
    }
}
