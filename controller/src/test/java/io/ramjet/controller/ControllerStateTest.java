package io.ramjet.controller;

import io.ramjet.controller.ControllerRequest.AlterInSyncSet;
import io.ramjet.controller.ControllerRequest.Election;
import io.ramjet.controller.ControllerRequest.MasterRestart;
import io.ramjet.controller.ControllerRequest.RegisterBroker;
import io.ramjet.model.EpochEntry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The deterministic decisions, without Raft: what every controller applies from the log. */
class ControllerStateTest {

    private final ControllerState state = new ControllerState();

    @BeforeEach
    void groupOfThree() {
        state.register(new RegisterBroker("g", 0, "h:0", 100));
        state.register(new RegisterBroker("g", 1, "h:1", 0));
        state.register(new RegisterBroker("g", 2, "h:2", 0));
    }

    @Test
    void theFirstBrokerOfAGroupBecomesMasterOfEpochOneAtItsLogEnd() {
        ReplicaInfo group = state.view("g", -1).info();
        assertEquals(0, group.masterId());
        assertEquals(List.of(new EpochEntry(1, 100)), group.history().entries());
        assertEquals(Set.of(0L), group.inSync());
        assertEquals(Set.of(0L, 1L, 2L), group.members().keySet());
    }

    @Test
    void theMasterAltersItsInSyncSet() {
        ControllerReply reply = state.alterInSyncSet(new AlterInSyncSet("g", 0, 1, Set.of(0L, 1L)));
        assertEquals(ControllerStatus.OK, reply.status());
        assertEquals(Set.of(0L, 1L), reply.info().inSync());
    }

    @Test
    void anAlterFromAStaleEpochIsRefused() {
        state.alterInSyncSet(new AlterInSyncSet("g", 0, 1, Set.of(0L, 1L)));
        state.elect(new Election("g", 1, false, false, Map.of(1L, 150L)));
        ControllerReply reply = state.alterInSyncSet(new AlterInSyncSet("g", 0, 1, Set.of(0L, 1L, 2L)));
        assertEquals(ControllerStatus.STALE_EPOCH, reply.status());
        assertEquals(Set.of(1L), reply.info().inSync());
    }

    @Test
    void onlyTheMasterAltersAndNeverLeavesItselfOut() {
        assertEquals(ControllerStatus.NOT_MASTER, state.alterInSyncSet(new AlterInSyncSet("g", 1, 1, Set.of(1L))).status());
        assertEquals(ControllerStatus.INVALID_SYNC_SET, state.alterInSyncSet(new AlterInSyncSet("g", 0, 1, Set.of(1L))).status());
        assertEquals(ControllerStatus.INVALID_SYNC_SET, state.alterInSyncSet(new AlterInSyncSet("g", 0, 1, Set.of(0L, 9L))).status());
    }

    @Test
    void theLiveInSyncReplicaWithTheLongestLogBecomesMasterOfANewEpochStartingAtItsLogEnd() {
        state.alterInSyncSet(new AlterInSyncSet("g", 0, 1, Set.of(0L, 1L, 2L)));
        ControllerReply reply = state.elect(new Election("g", 1, false, false, Map.of(1L, 140L, 2L, 150L)));
        assertEquals(ControllerStatus.OK, reply.status());
        assertEquals(2, reply.info().masterId());
        assertEquals(new EpochEntry(2, 150), reply.info().history().entries().get(1));
        assertEquals(Set.of(2L), reply.info().inSync());
    }

    @Test
    void anOutOfSyncReplicaIsNeverElectedCleanly() {
        state.alterInSyncSet(new AlterInSyncSet("g", 0, 1, Set.of(0L, 1L)));
        ControllerReply reply = state.elect(new Election("g", 1, false, false, Map.of(2L, 500L)));
        assertEquals(ControllerStatus.NO_CANDIDATE, reply.status());
        assertEquals(0, reply.info().masterId());
        assertEquals(1, reply.info().epoch());
    }

    @Test
    void anUncleanElectionTakesALiveReplicaOnlyWhenNoneInSyncIsAlive() {
        ControllerReply reply = state.elect(new Election("g", 1, false, true, Map.of(2L, 90L)));
        assertEquals(ControllerStatus.OK, reply.status());
        assertEquals(2, reply.info().masterId());
        assertEquals(new EpochEntry(2, 90), reply.info().history().entries().get(1));
    }

    @Test
    void aLiveMasterIsKept() {
        state.alterInSyncSet(new AlterInSyncSet("g", 0, 1, Set.of(0L, 1L)));
        assertEquals(ControllerStatus.MASTER_ALIVE, state.elect(new Election("g", 1, true, false, Map.of(1L, 100L))).status());
    }

    @Test
    void anElectionDecidedAgainstAnEarlierEpochChangesNothing() {
        state.alterInSyncSet(new AlterInSyncSet("g", 0, 1, Set.of(0L, 1L, 2L)));
        Election election = new Election("g", 1, false, false, Map.of(1L, 100L, 2L, 100L));
        state.elect(election);
        ControllerReply again = state.elect(election);
        assertEquals(ControllerStatus.STALE_EPOCH, again.status());
        assertEquals(1, again.info().masterId());
        assertEquals(2, again.info().epoch());
    }

    @Test
    void aReturningOldMasterRejoinsAsASlaveOutOfSync() {
        state.alterInSyncSet(new AlterInSyncSet("g", 0, 1, Set.of(0L, 1L)));
        state.elect(new Election("g", 1, false, false, Map.of(1L, 120L)));
        ControllerReply reply = state.register(new RegisterBroker("g", 0, "h:0b", 130));
        assertEquals(1, reply.info().masterId());
        assertEquals(Set.of(1L), reply.info().inSync());
        assertEquals("h:0b", reply.info().members().get(0L));
        assertEquals(120, reply.info().history().truncationPoint(1, 130));
    }

    @Test
    void aRestartedMasterIsReplacedByTheLiveInSyncReplicaAndRejoinsAsASlave() {
        state.alterInSyncSet(new AlterInSyncSet("g", 0, 1, Set.of(0L, 1L, 2L)));
        ControllerReply reply = state.restartMaster(new MasterRestart(new RegisterBroker("g", 0, "h:0b", 180), 1,
                Map.of(0L, 180L, 1L, 150L, 2L, 140L)));
        assertEquals(ControllerStatus.OK, reply.status());
        assertEquals(1, reply.info().masterId());
        assertEquals(new EpochEntry(2, 150), reply.info().history().entries().get(1));
        assertEquals("h:0b", reply.info().members().get(0L));
        assertEquals(150, reply.info().history().truncationPoint(1, 180));
    }

    @Test
    void aRestartedMasterWithNoLiveInSyncReplicaStaysMaster() {
        state.alterInSyncSet(new AlterInSyncSet("g", 0, 1, Set.of(0L, 1L)));
        ControllerReply reply = state.restartMaster(new MasterRestart(new RegisterBroker("g", 0, "h:0b", 180), 1,
                Map.of(2L, 140L)));
        assertEquals(ControllerStatus.OK, reply.status());
        assertEquals(0, reply.info().masterId());
        assertEquals(1, reply.info().epoch());
        assertEquals("h:0b", reply.info().members().get(0L));
    }

    @Test
    void aRestartOfAMasterAlreadyReplacedIsAPlainRegistration() {
        state.alterInSyncSet(new AlterInSyncSet("g", 0, 1, Set.of(0L, 1L, 2L)));
        state.elect(new Election("g", 1, false, false, Map.of(1L, 150L, 2L, 140L)));
        ControllerReply reply = state.restartMaster(new MasterRestart(new RegisterBroker("g", 0, "h:0b", 180), 1,
                Map.of(2L, 140L)));
        assertEquals(ControllerStatus.OK, reply.status());
        assertEquals(1, reply.info().masterId());
        assertEquals(2, reply.info().epoch());
    }

    @Test
    void unknownGroupsAndBrokersAreReported() {
        assertEquals(ControllerStatus.UNKNOWN_GROUP, state.view("nope", -1).status());
        assertEquals(ControllerStatus.UNKNOWN_BROKER, state.view("g", 7).status());
        assertEquals(ControllerStatus.UNKNOWN_GROUP,
                state.elect(new Election("nope", 0, false, true, Map.of())).status());
    }
}
