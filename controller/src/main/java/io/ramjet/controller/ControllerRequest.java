package io.ramjet.controller;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The commands of the controller group (RocketMQ 5 controller mode's RegisterBroker, heartbeat,
 * AlterSyncStateSet, ElectMaster, GetReplicaInfo). Writes go through the Raft log; heartbeats and
 * replica-info reads are served by the Ratis leader without a log entry.
 */
public sealed interface ControllerRequest {

    String brokerName();

    /**
     * A broker joins its group (or returns to it); the first broker of a group becomes its master.
     * A broker registers when its process starts, and again only if the controllers answer that
     * they do not know it: a registration from the group's master is a new run of that master.
     */
    record RegisterBroker(String brokerName, long brokerId, String address, long maxOffset) implements ControllerRequest {
    }

    /** A broker is alive, its CommitLog ending at {@code maxOffset}. Leader-local, never logged. */
    record Heartbeat(String brokerName, long brokerId, long maxOffset) implements ControllerRequest {
    }

    /**
     * A heartbeat from a replica whose connection to the master of {@code epoch} is lost: once that
     * master's lease has run out, the controllers replace it without waiting for the longer
     * silence that proves a master dead when no replica has lost it. Leader-local, never logged.
     */
    record MasterLost(String brokerName, long brokerId, long maxOffset, int epoch) implements ControllerRequest {
    }

    /** The master of {@code epoch} declares which replicas are in sync with it. */
    record AlterInSyncSet(String brokerName, long masterId, int epoch, Set<Long> inSync) implements ControllerRequest {
        public AlterInSyncSet {
            inSync = Set.copyOf(inSync);
        }
    }

    /** Replace the group's master if it no longer heartbeats; {@code unclean} allows a replica not in sync. */
    record ElectMaster(String brokerName, boolean unclean) implements ControllerRequest {
    }

    /**
     * The log entry a {@link RegisterBroker} from the group's own master becomes on the Ratis
     * leader when a live in-sync replica can replace it and the master's previous run is past its
     * lease: the registration, then the election an {@link Election} of {@code expectedEpoch} with
     * the master not alive and these {@code aliveOffsets} would make. The restarted master thus
     * returns as a replica and truncates what its replicas never had, instead of serving it.
     */
    record MasterRestart(RegisterBroker registration, int expectedEpoch, Map<Long, Long> aliveOffsets)
            implements ControllerRequest {
        public MasterRestart {
            aliveOffsets = Collections.unmodifiableSortedMap(new TreeMap<>(aliveOffsets));
        }

        @Override
        public String brokerName() {
            return registration.brokerName();
        }

        /** The election this entry makes after the registration. */
        Election election() {
            return new Election(brokerName(), expectedEpoch, false, false, aliveOffsets);
        }
    }

    /** Read what the controller holds for a group. */
    record GetReplicaInfo(String brokerName) implements ControllerRequest {
    }

    /**
     * The log entry an {@link ElectMaster} becomes on the Ratis leader: the leader's view of
     * liveness at that moment (is the master alive, which brokers heartbeat and how far their logs
     * reach), fixed into the entry so that every controller applies the same decision. Applied only
     * while the group is still at {@code expectedEpoch}, so a retried or duplicated election
     * changes the master at most once.
     */
    record Election(String brokerName, int expectedEpoch, boolean masterAlive, boolean unclean,
                    Map<Long, Long> aliveOffsets) implements ControllerRequest {
        public Election {
            aliveOffsets = Collections.unmodifiableSortedMap(new TreeMap<>(aliveOffsets));
        }
    }
}
