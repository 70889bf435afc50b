package io.ramjet.server.broker.replication;

import java.util.Objects;

/**
 * What drives a master from outside its configuration: its write lease and where its in-sync set
 * is committed. {@link #LOCAL} for a broker whose role is configured; the controller link supplies
 * another in controller mode.
 */
public record ReplicationControl(MasterLease lease, InSyncSetCommit inSyncCommit) {

    public static final ReplicationControl LOCAL = new ReplicationControl(MasterLease.ALWAYS, InSyncSetCommit.LOCAL);

    public ReplicationControl {
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(inSyncCommit, "inSyncCommit");
    }
}
