package io.ramjet.controller;

import io.ramjet.controller.ControllerRequest.AlterInSyncSet;
import io.ramjet.controller.ControllerRequest.Election;
import io.ramjet.controller.ControllerRequest.MasterRestart;
import io.ramjet.controller.ControllerRequest.RegisterBroker;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The replicated state: every broker group's {@link ReplicaInfo}. Applying a committed command is
 * deterministic (it reads nothing but the command and this state), so every controller that
 * applies the same log holds the same groups. Not thread-safe: the state machine serialises
 * applies, reads and snapshots on it.
 */
final class ControllerState {

    private final Map<String, ReplicaInfo> groups = new TreeMap<>();

    ControllerReply register(RegisterBroker command) {
        ReplicaInfo group = groups.getOrDefault(command.brokerName(), ReplicaInfo.empty(command.brokerName()))
                .withMember(command.brokerId(), command.address());
        if (!group.hasMaster()) {
            group = group.withNewMaster(command.brokerId(), command.maxOffset());
        }
        groups.put(group.brokerName(), group);
        return new ControllerReply(ControllerStatus.OK, group);
    }

    ControllerReply alterInSyncSet(AlterInSyncSet command) {
        ReplicaInfo group = groups.get(command.brokerName());
        if (group == null) {
            return new ControllerReply(ControllerStatus.UNKNOWN_GROUP, ReplicaInfo.empty(command.brokerName()));
        }
        if (command.epoch() != group.epoch()) {
            return new ControllerReply(ControllerStatus.STALE_EPOCH, group);
        }
        if (command.masterId() != group.masterId()) {
            return new ControllerReply(ControllerStatus.NOT_MASTER, group);
        }
        if (!command.inSync().contains(group.masterId()) || !group.members().keySet().containsAll(command.inSync())) {
            return new ControllerReply(ControllerStatus.INVALID_SYNC_SET, group);
        }
        ReplicaInfo next = group.withInSync(command.inSync());
        groups.put(next.brokerName(), next);
        return new ControllerReply(ControllerStatus.OK, next);
    }

    /**
     * Replaces a master that stopped heartbeating with the live in-sync replica whose log reaches
     * furthest (lowest id on a tie); with {@code unclean}, any live replica when none is in sync.
     * The new epoch starts at the new master's log end, and the new master is alone in sync until
     * it says otherwise.
     */
    ControllerReply elect(Election command) {
        ReplicaInfo group = groups.get(command.brokerName());
        if (group == null) {
            return new ControllerReply(ControllerStatus.UNKNOWN_GROUP, ReplicaInfo.empty(command.brokerName()));
        }
        if (command.expectedEpoch() != group.epoch()) {
            return new ControllerReply(ControllerStatus.STALE_EPOCH, group);
        }
        if (command.masterAlive()) {
            return new ControllerReply(ControllerStatus.MASTER_ALIVE, group);
        }
        Optional<Map.Entry<Long, Long>> candidate = candidate(group, command.aliveOffsets(), true);
        if (candidate.isEmpty() && command.unclean()) {
            candidate = candidate(group, command.aliveOffsets(), false);
        }
        if (candidate.isEmpty()) {
            return new ControllerReply(ControllerStatus.NO_CANDIDATE, group);
        }
        ReplicaInfo next = group.withNewMaster(candidate.get().getKey(), candidate.get().getValue());
        groups.put(next.brokerName(), next);
        return new ControllerReply(ControllerStatus.OK, next);
    }

    /**
     * A restarted master registers, then is replaced as {@link #elect} replaces a dead one (its
     * previous run is gone); with no live in-sync replica it stays master, as the registration
     * alone leaves it. Answered OK with the group as it then stands.
     */
    ControllerReply restartMaster(MasterRestart command) {
        ControllerReply registered = register(command.registration());
        if (registered.info().masterId() != command.registration().brokerId()) {
            return registered;
        }
        ControllerReply elected = elect(command.election());
        return elected.ok() ? elected : registered;
    }

    /**
     * The replica that may replace {@code group}'s master: of the live ones ({@code aliveOffsets},
     * broker id → log end), members other than the master, in sync if {@code inSyncOnly}, the one
     * whose log reaches furthest (lowest id on a tie).
     */
    static Optional<Map.Entry<Long, Long>> candidate(ReplicaInfo group, Map<Long, Long> aliveOffsets,
                                                     boolean inSyncOnly) {
        Map.Entry<Long, Long> best = null;
        for (Map.Entry<Long, Long> alive : new TreeMap<>(aliveOffsets).entrySet()) {
            long id = alive.getKey();
            boolean eligible = id != group.masterId() && group.members().containsKey(id)
                    && (!inSyncOnly || group.inSync().contains(id));
            // ids come in ascending order, so only a strictly longer log displaces the best
            if (eligible && (best == null || alive.getValue() > best.getValue())) {
                best = alive;
            }
        }
        return Optional.ofNullable(best);
    }

    /** The group as it stands, or UNKNOWN_GROUP / UNKNOWN_BROKER when {@code brokerId} (≥ 0) is not in it. */
    ControllerReply view(String brokerName, long brokerId) {
        ReplicaInfo group = groups.get(brokerName);
        if (group == null) {
            return new ControllerReply(ControllerStatus.UNKNOWN_GROUP, ReplicaInfo.empty(brokerName));
        }
        if (brokerId >= 0 && !group.members().containsKey(brokerId)) {
            return new ControllerReply(ControllerStatus.UNKNOWN_BROKER, group);
        }
        return new ControllerReply(ControllerStatus.OK, group);
    }

    Collection<ReplicaInfo> groups() {
        return List.copyOf(groups.values());
    }

    void replaceAll(Collection<ReplicaInfo> loaded) {
        groups.clear();
        loaded.forEach(group -> groups.put(group.brokerName(), group));
    }
}
