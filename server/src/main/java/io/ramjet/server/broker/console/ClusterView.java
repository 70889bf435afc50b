package io.ramjet.server.broker.console;

import java.util.List;

/**
 * What {@code GET /api/cluster} answers: this broker's place in its group (its role and epoch; a
 * master's slaves, how far each has flushed its log and whether it is in the in-sync set) and
 * the brokers each NameServer routes clients to, grouped there by cluster and group.
 *
 * @param group       this broker's group
 * @param nameServers each configured NameServer's answer, in configuration order
 */
public record ClusterView(Group group, List<NameServer> nameServers) {

    /**
     * @param role   {@code MASTER} or {@code SLAVE}
     * @param epoch  the last epoch of this broker's log
     * @param master a slave's master address, null on a master
     * @param slaves a master's slaves that fetched since it started, empty on a slave
     */
    public record Group(String cluster, String name, long brokerId, String address, String role, long epoch,
                        long logEndOffset, String master, List<Slave> slaves) {
    }

    /** @param lagBytes how far its flushed log is behind the master's end */
    public record Slave(long brokerId, long flushedOffset, long lagBytes, boolean inSync) {
    }

    /** @param error why it gave no answer, null when it answered */
    public record NameServer(String address, String error, List<Registered> brokers) {
    }

    /** A broker a NameServer routes clients to: only masters register. */
    public record Registered(String cluster, String group, long brokerId, String address) {
    }
}
