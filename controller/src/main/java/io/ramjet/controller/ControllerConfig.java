package io.ramjet.controller;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;

/**
 * How one controller node runs.
 *
 * @param nodeId           this node's id in {@code group}
 * @param dataDir          where Ratis keeps this node's log and snapshots
 * @param brokerTimeout    a master's lease, the brokers' {@code controllerTimeoutMs}: a master silent this long
 *                         (heartbeats should come 3-5 times as often) is replaced once a replica of its group
 *                         reports losing its connection to it
 * @param uncleanElection  elect a live replica that is not in sync when no in-sync one is alive (may lose records)
 * @param raftTimeout      Raft's election timeout (minimum; the maximum is twice it)
 * @param snapshotEvery    applied log entries between snapshots
 * @param logSegmentBytes  size of a Raft log segment; closed segments a snapshot covers are deleted,
 *                         and a controller that missed them is sent the snapshot instead
 * @param secret           the cluster secret: every request, log entry and reply is signed with it, and
 *                         the group hears no one who does not hold it
 * @param silentMasterTimeout a master silent this long is replaced though no replica reported losing it
 *                         (a master paused, or cut from the controllers only); at least {@code brokerTimeout}
 * @param tls              the group's mutual TLS (Ratis's gRPC transport), or null for Ratis's Netty
 *                         transport without TLS; every member and client of a group must agree
 */
public record ControllerConfig(String nodeId, Path dataDir, ControllerGroup group, Duration brokerTimeout,
                               boolean uncleanElection, Duration raftTimeout, long snapshotEvery,
                               long logSegmentBytes, ClusterSecret secret, Duration silentMasterTimeout,
                               ControllerTls tls) {

    public static final Duration DEFAULT_BROKER_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration DEFAULT_SILENT_MASTER_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_RAFT_TIMEOUT = Duration.ofSeconds(1);
    public static final long DEFAULT_SNAPSHOT_EVERY = 10_000;
    public static final long DEFAULT_LOG_SEGMENT_BYTES = 8L << 20;

    public ControllerConfig {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(secret, "a controller needs the cluster secret");
        group.peer(nodeId);
        if (brokerTimeout.isNegative() || brokerTimeout.isZero() || raftTimeout.isNegative() || raftTimeout.isZero()
                || snapshotEvery < 1 || logSegmentBytes < 1) {
            throw new IllegalArgumentException("controller timeouts and snapshot interval must be positive");
        }
        if (silentMasterTimeout.compareTo(brokerTimeout) < 0) {
            throw new IllegalArgumentException("controller.silentMasterTimeoutMillis must be at least"
                    + " controller.brokerTimeoutMillis");
        }
    }

    /** A node without TLS. */
    public ControllerConfig(String nodeId, Path dataDir, ControllerGroup group, Duration brokerTimeout,
                            boolean uncleanElection, Duration raftTimeout, long snapshotEvery, long logSegmentBytes,
                            ClusterSecret secret, Duration silentMasterTimeout) {
        this(nodeId, dataDir, group, brokerTimeout, uncleanElection, raftTimeout, snapshotEvery, logSegmentBytes,
                secret, silentMasterTimeout, null);
    }

    /** A node that replaces a master silent for {@code brokerTimeout} whether or not a replica lost it. */
    public ControllerConfig(String nodeId, Path dataDir, ControllerGroup group, Duration brokerTimeout,
                            boolean uncleanElection, Duration raftTimeout, long snapshotEvery, long logSegmentBytes,
                            ClusterSecret secret) {
        this(nodeId, dataDir, group, brokerTimeout, uncleanElection, raftTimeout, snapshotEvery, logSegmentBytes,
                secret, brokerTimeout, null);
    }

    /** A node with the defaults: 2 s broker timeout, 10 s silent-master timeout, clean elections only, 1 s Raft timeout. */
    public static ControllerConfig of(String nodeId, Path dataDir, ControllerGroup group, ClusterSecret secret) {
        return new ControllerConfig(nodeId, dataDir, group, DEFAULT_BROKER_TIMEOUT, false, DEFAULT_RAFT_TIMEOUT,
                DEFAULT_SNAPSHOT_EVERY, DEFAULT_LOG_SEGMENT_BYTES, secret, DEFAULT_SILENT_MASTER_TIMEOUT, null);
    }

    /**
     * Reads {@code controller.id}, {@code controller.dataDir}, {@code controller.peers}, the
     * cluster secret as {@code controller.clusterSecretFile} or {@code controller.clusterSecret}
     * (required) and {@code controller.brokerTimeoutMillis}, {@code controller.uncleanElection},
     * {@code controller.raftTimeoutMillis}, {@code controller.snapshotEvery},
     * {@code controller.logSegmentBytes}, {@code controller.silentMasterTimeoutMillis} and the mutual
     * TLS as PEM files {@code controller.tlsCertificate}, {@code controller.tlsPrivateKey},
     * {@code controller.tlsTrustStore} (optional; all three or none).
     */
    public static ControllerConfig fromProperties(Properties properties) {
        return fromProperties(properties, null);
    }

    /**
     * As {@link #fromProperties(Properties)}, with {@code otherwise} as the cluster secret when the
     * properties name none (a controller inside a NameServer: the secret derived from the
     * NameServer's), or null to require one.
     */
    public static ControllerConfig fromProperties(Properties properties, ClusterSecret otherwise) {
        return new ControllerConfig(
                required(properties, "controller.id"),
                Path.of(required(properties, "controller.dataDir")),
                ControllerGroup.parse(required(properties, "controller.peers")),
                Duration.ofMillis(Long.parseLong(properties.getProperty("controller.brokerTimeoutMillis",
                        Long.toString(DEFAULT_BROKER_TIMEOUT.toMillis())))),
                Boolean.parseBoolean(properties.getProperty("controller.uncleanElection", "false")),
                Duration.ofMillis(Long.parseLong(properties.getProperty("controller.raftTimeoutMillis",
                        Long.toString(DEFAULT_RAFT_TIMEOUT.toMillis())))),
                Long.parseLong(properties.getProperty("controller.snapshotEvery", Long.toString(DEFAULT_SNAPSHOT_EVERY))),
                Long.parseLong(properties.getProperty("controller.logSegmentBytes", Long.toString(DEFAULT_LOG_SEGMENT_BYTES))),
                secret(properties, otherwise),
                Duration.ofMillis(Long.parseLong(properties.getProperty("controller.silentMasterTimeoutMillis",
                        Long.toString(DEFAULT_SILENT_MASTER_TIMEOUT.toMillis())))),
                tls(properties));
    }

    /** The mutual TLS named by {@code properties}, or null when they name none. */
    public static ControllerTls tls(Properties properties) {
        String[] names = {"controller.tlsCertificate", "controller.tlsPrivateKey", "controller.tlsTrustStore"};
        return ControllerTls.of(path(properties, names[0]), path(properties, names[1]), path(properties, names[2]),
                names);
    }

    private static Path path(Properties properties, String key) {
        String value = properties.getProperty(key);
        return value == null || value.isBlank() ? null : Path.of(value.trim());
    }

    private static ClusterSecret secret(Properties properties, ClusterSecret otherwise) {
        String file = properties.getProperty("controller.clusterSecretFile");
        String text = properties.getProperty("controller.clusterSecret");
        if (file != null && text != null) {
            throw new IllegalArgumentException("controller.clusterSecretFile and controller.clusterSecret: not both");
        }
        if (file != null) {
            try {
                return ClusterSecret.fromFile(Path.of(file.trim()));
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("cannot read controller.clusterSecretFile " + file.trim(), e);
            }
        }
        if (text != null) {
            return ClusterSecret.of(text);
        }
        if (otherwise == null) {
            throw new IllegalArgumentException("missing controller property controller.clusterSecretFile (or"
                    + " controller.clusterSecret): the controllers hear only members of the cluster");
        }
        return otherwise;
    }

    public ControllerConfig withSilentMasterTimeout(Duration timeout) {
        return new ControllerConfig(nodeId, dataDir, group, brokerTimeout, uncleanElection, raftTimeout, snapshotEvery,
                logSegmentBytes, secret, timeout, tls);
    }

    public ControllerConfig withTls(ControllerTls mutualTls) {
        return new ControllerConfig(nodeId, dataDir, group, brokerTimeout, uncleanElection, raftTimeout, snapshotEvery,
                logSegmentBytes, secret, silentMasterTimeout, mutualTls);
    }

    private static String required(Properties properties, String key) {
        String value = properties.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("missing controller property " + key);
        }
        return value.trim();
    }
}
