package io.ramjet.server.broker.ha;

import io.ramjet.controller.ReplicaInfo;
import io.ramjet.server.broker.replication.ReplicationConfig;

/**
 * A broker's part in its group as the controllers decided it: master of {@code epoch}, or slave
 * of the master at {@code masterAddress} in {@code epoch}. A slave whose master's epoch changes
 * takes a new role even at the same address, since it must compare epoch histories again.
 */
public record BrokerRole(boolean master, int epoch, String masterAddress) {

    public static BrokerRole master(int epoch) {
        return new BrokerRole(true, epoch, null);
    }

    public static BrokerRole slaveOf(String masterAddress, int epoch) {
        return new BrokerRole(false, epoch, masterAddress);
    }

    /** The role the controllers' view of the group gives broker {@code brokerId}; the group must have a master. */
    static BrokerRole of(ReplicaInfo group, long brokerId) {
        return group.masterId() == brokerId ? master(group.epoch()) : slaveOf(group.masterAddress(), group.epoch());
    }

    /** {@code settings} with this role. */
    ReplicationConfig applyTo(ReplicationConfig settings) {
        return master ? settings.asMaster(epoch) : settings.asSlaveOf(masterAddress);
    }

    @Override
    public String toString() {
        return master ? "master of epoch " + epoch : "slave of " + masterAddress + " (epoch " + epoch + ")";
    }
}
