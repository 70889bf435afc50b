package io.ramjet.server.broker.replication;

/**
 * Whether a master may still accept writes. In controller mode the lease is held while the
 * controller group answers the master's heartbeats; a master that lost it refuses writes, so an
 * isolated old master accepts nothing that a newly elected master will not have.
 */
public interface MasterLease {

    /** The lease of a master whose role comes from its configuration: always held. */
    MasterLease ALWAYS = () -> true;

    boolean held();
}
