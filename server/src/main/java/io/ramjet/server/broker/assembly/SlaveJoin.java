package io.ramjet.server.broker.assembly;

import io.ramjet.protocol.command.ReplicaHandshakeResponse;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.storage.ForceRecorder;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingException;
import io.ramjet.server.broker.durability.SnapshotFile;
import io.ramjet.server.broker.processor.MasterExchange;
import io.ramjet.server.broker.replication.EpochFile;
import io.ramjet.server.broker.replication.EpochHistory;
import io.ramjet.server.cluster.ClusterIntroduction;
import io.ramjet.storage.StoreConfig;
import io.ramjet.storage.StoreTruncation;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a slave does before its store opens (RocketMQ 5's AutoSwitchHA handshake): asks the
 * master for its epoch history, finds the last offset where the two logs agree, and when this
 * log runs past it (a tail written under an older master), truncates the CommitLog there, drops
 * the epochs past it and the consumption snapshot, and forgets the checkpoint, so the store cuts
 * its ConsumeQueues and the broker replays its state from the whole retained log as it opens.
 * A running slave that changes master uses the same handshake and comparison
 * ({@code ReplicationSide.follow}), and follows without reopening when there is nothing to cut.
 */
final class SlaveJoin {

    private static final Logger LOG = LoggerFactory.getLogger(SlaveJoin.class);
    private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(3);
    private static final long RETRY_NANOS = Duration.ofMillis(200).toNanos();

    private SlaveJoin() {
    }

    /**
     * Handshakes with the master, retrying until {@code patience} is spent, and truncates.
     *
     * @throws IllegalStateException if the master cannot be reached or this store cannot follow it
     */
    static void join(AssemblyConfig config, StoreConfig storeConfig, EpochFile epochs, RemotingClient client,
                     ClusterIntroduction introduction, Duration patience) throws InterruptedException {
        String master = config.replication().masterAddress();
        ReplicaHandshakeResponse answer = handshake(config, client, master, introduction, patience);
        long end = StoreTruncation.logEnd(storeConfig);
        long common = agreement(storeConfig, epochs, end, master, answer);
        if (common < end) {
            LOG.warn("slave {}/{}: its log diverges from master {} at offset {} (it ends at {}): truncating",
                    config.brokerName(), config.brokerId(), master, common, end);
            StoreTruncation.truncate(storeConfig, common);
            epochs.truncate(common);
            new SnapshotFile(config.dataDir().resolve("broker"), ForceRecorder.NONE).delete();
            StoreTruncation.forgetCheckpoint(storeConfig);
        }
        LOG.info("slave {}/{} follows master {} from offset {} (master ends at {}, epoch {})", config.brokerName(),
                config.brokerId(), master, common, answer.endOffset(),
                answer.epochs().isEmpty() ? 0 : answer.epochs().get(answer.epochs().size() - 1).epoch());
    }

    /**
     * The offset up to which this log (ending at {@code end}) and the master's, as its handshake
     * answered, hold the same records.
     *
     * @throws IllegalStateException if this store cannot follow that master
     */
    static long agreement(StoreConfig storeConfig, EpochFile epochs, long end, String master,
                          ReplicaHandshakeResponse answer) {
        if (answer.segmentSize() != storeConfig.segmentSize()) {
            throw new IllegalStateException("master " + master + " has CommitLog segments of " + answer.segmentSize()
                    + " bytes, this slave " + storeConfig.segmentSize() + ": they must be equal");
        }
        long common = EpochHistory.lastCommonOffset(epochs.entries(), end, answer.epochs(), answer.endOffset());
        if (common < answer.minOffset() && common < answer.endOffset()) {
            throw new IllegalStateException("master " + master + " retains its log from " + answer.minOffset()
                    + " but this slave has it only up to " + common + ": start the slave with an empty data directory");
        }
        return common;
    }

    /** The handshake with {@code master}, retried until {@code patience} is spent. */
    static ReplicaHandshakeResponse handshake(AssemblyConfig config, RemotingClient client, String master,
                                                      ClusterIntroduction introduction, Duration patience)
            throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            try {
                return MasterExchange.handshake(client, master, config.brokerName(), config.brokerId(), introduction,
                        ATTEMPT_TIMEOUT);
            } catch (ClusterIntroduction.NotAMemberException e) {
                throw new IllegalStateException("slave " + config.brokerName() + "/" + config.brokerId()
                        + " will not follow " + master + ": " + e.getMessage(), e);
            } catch (RemotingCommandException e) {
                if (e.status() == ErrorStatus.AUTHENTICATION_FAILED) {
                    throw new IllegalStateException("master " + master + " refused slave " + config.brokerName() + "/"
                            + config.brokerId() + " as a member of the cluster: the brokers of a group must hold"
                            + " the same cluster secret (" + e.getMessage() + ")", e);
                }
                giveUpAfter(deadline, config, master, e);
                LockSupport.parkNanos(RETRY_NANOS);
            } catch (RemotingException e) {
                giveUpAfter(deadline, config, master, e);
                LockSupport.parkNanos(RETRY_NANOS);
            }
        }
    }

    private static void giveUpAfter(long deadline, AssemblyConfig config, String master, RemotingException e) {
        if (System.nanoTime() - deadline > 0) {
            throw new IllegalStateException("slave " + config.brokerName() + "/" + config.brokerId()
                    + " cannot handshake with master " + master + ": " + e.getMessage(), e);
        }
    }
}
