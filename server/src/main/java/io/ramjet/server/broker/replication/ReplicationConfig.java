package io.ramjet.server.broker.replication;

import java.time.Duration;
import java.util.Objects;

/**
 * How a broker takes part in its group's CommitLog replication, as configured until a
 * controller decides it.
 *
 * @param role              MASTER serves clients and replicas; SLAVE follows {@code masterAddress}
 * @param masterAddress     {@code host:port} of the group's master, for a slave (null for a master)
 * @param mode              SYNC: a durable append (send, commit, ack) is answered once every slave of
 *                          the in-sync set has it flushed; ASYNC: at local durability
 * @param minInSyncReplicas under SYNC, how many brokers (the master included) must hold a durable
 *                          append; fewer in sync makes it wait, up to {@code syncTimeout}
 * @param maxLag            a slave that has not caught up with the master for this long leaves the
 *                          in-sync set; it joins again once it has caught up
 * @param syncTimeout       how long a SYNC append waits for the in-sync set before it fails
 * @param masterEpoch       the epoch a master writes in (a controller's choice), or 0 for one past
 *                          the newest epoch in the broker's history
 */
public record ReplicationConfig(Role role, String masterAddress, Mode mode, int minInSyncReplicas, Duration maxLag,
                                Duration syncTimeout, int masterEpoch) {

    /** A broker's part in its group. */
    public enum Role { MASTER, SLAVE }

    /** When a durable append is answered. */
    public enum Mode { SYNC, ASYNC }

    /** A master with no replication to wait for. */
    public static final ReplicationConfig DEFAULT = new ReplicationConfig(Role.MASTER, null, Mode.ASYNC, 1,
            Duration.ofSeconds(10), Duration.ofSeconds(5), 0);

    public ReplicationConfig {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(maxLag, "maxLag");
        Objects.requireNonNull(syncTimeout, "syncTimeout");
        if (role == Role.SLAVE && (masterAddress == null || masterAddress.isBlank())) {
            throw new IllegalArgumentException("role SLAVE needs masterAddress");
        }
        if (minInSyncReplicas < 1) {
            throw new IllegalArgumentException("minInSyncReplicas must be at least 1 (the master)");
        }
        if (masterEpoch < 0) {
            throw new IllegalArgumentException("masterEpoch must be 0 (the next one) or positive");
        }
        if (maxLag.isNegative() || maxLag.isZero() || syncTimeout.isNegative() || syncTimeout.isZero()) {
            throw new IllegalArgumentException("replicaMaxLagMs and replicaSyncTimeoutMs must be positive");
        }
    }

    public boolean slave() {
        return role == Role.SLAVE;
    }

    /** The same settings for a slave of {@code address}. */
    public ReplicationConfig asSlaveOf(String address) {
        return new ReplicationConfig(Role.SLAVE, address, mode, minInSyncReplicas, maxLag, syncTimeout, 0);
    }

    /** The same settings for a master writing in {@code epoch} (0: the next one). */
    public ReplicationConfig asMaster(int epoch) {
        return new ReplicationConfig(Role.MASTER, null, mode, minInSyncReplicas, maxLag, syncTimeout, epoch);
    }

    public ReplicationConfig withMode(Mode newMode, int newMinInSyncReplicas) {
        return new ReplicationConfig(role, masterAddress, newMode, newMinInSyncReplicas, maxLag, syncTimeout,
                masterEpoch);
    }
}
