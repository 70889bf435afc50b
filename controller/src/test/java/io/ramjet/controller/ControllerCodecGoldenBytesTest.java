package io.ramjet.controller;

import io.ramjet.controller.ControllerRequest.AlterInSyncSet;
import io.ramjet.controller.ControllerRequest.ElectMaster;
import io.ramjet.controller.ControllerRequest.Election;
import io.ramjet.controller.ControllerRequest.GetReplicaInfo;
import io.ramjet.controller.ControllerRequest.Heartbeat;
import io.ramjet.controller.ControllerRequest.MasterLost;
import io.ramjet.controller.ControllerRequest.MasterRestart;
import io.ramjet.controller.ControllerRequest.RegisterBroker;
import io.ramjet.model.EpochEntry;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Pins the controller's encoding byte for byte: log entries and snapshots written by one version
 * are read by the next, so a change here must be a deliberate new kind, never an edit.
 */
class ControllerCodecGoldenBytesTest {

    private static final String NAME = "000162"; // "b" as modified UTF-8 with its 2-byte length
    private static final String ADDRESS = "0003683a31"; // "h:1"

    private static final ReplicaInfo GROUP = new ReplicaInfo("b", new TreeMap<>(Map.of(1L, "h:1")), 1,
            new EpochHistory(List.of(new EpochEntry(1, 0))), new TreeSet<>(Set.of(1L)));
    private static final String GROUP_BYTES = NAME + "00000001" + "0000000000000001" + ADDRESS
            + "0000000000000001" + "00000001" + "00000001" + "0000000000000000" + "00000001" + "0000000000000001";

    @Test
    void registerBroker() {
        assertRequest("01" + NAME + "0000000000000001" + ADDRESS + "0000000000000007",
                new RegisterBroker("b", 1, "h:1", 7));
    }

    @Test
    void heartbeat() {
        assertRequest("02" + NAME + "0000000000000002" + "0000000000000009", new Heartbeat("b", 2, 9));
    }

    @Test
    void masterLost() {
        assertRequest("07" + NAME + "0000000000000002" + "0000000000000009" + "00000003", new MasterLost("b", 2, 9, 3));
    }

    @Test
    void alterInSyncSetListsIdsInAscendingOrder() {
        assertRequest("03" + NAME + "0000000000000001" + "00000003" + "00000002" + "0000000000000001" + "0000000000000002",
                new AlterInSyncSet("b", 1, 3, Set.of(2L, 1L)));
    }

    @Test
    void electMaster() {
        assertRequest("04" + NAME + "01", new ElectMaster("b", true));
    }

    @Test
    void getReplicaInfo() {
        assertRequest("05" + NAME, new GetReplicaInfo("b"));
    }

    @Test
    void electionCarriesTheLeadersLivenessInIdOrder() {
        assertRequest("06" + NAME + "00000003" + "00" + "01" + "00000002"
                        + "0000000000000001" + "0000000000000032" + "0000000000000002" + "0000000000000028",
                new Election("b", 3, false, true, Map.of(2L, 40L, 1L, 50L)));
    }

    @Test
    void masterRestartIsTheRegistrationThenTheElectionsEpochAndLiveness() {
        assertRequest("08" + NAME + "0000000000000001" + ADDRESS + "0000000000000007" + "00000003" + "00000001"
                        + "0000000000000002" + "0000000000000028",
                new MasterRestart(new RegisterBroker("b", 1, "h:1", 7), 3, Map.of(2L, 40L)));
    }

    @Test
    void replyIsStatusOffsetFrom170ThenTheGroup() {
        ControllerReply reply = new ControllerReply(ControllerStatus.STALE_EPOCH, GROUP);
        assertEquals("04" + GROUP_BYTES, hex(ControllerCodec.encode(reply)));
        assertEquals(reply, ControllerCodec.decodeReply(bytes("04" + GROUP_BYTES)));
    }

    @Test
    void snapshotIsVersionOneThenTheGroups() {
        String golden = "00000001" + "00000001" + GROUP_BYTES;
        assertEquals(golden, hex(ControllerCodec.encodeSnapshot(List.of(GROUP))));
        assertEquals(List.of(GROUP), ControllerCodec.decodeSnapshot(bytes(golden)));
    }

    @Test
    void unknownKindTruncationAndTrailingBytesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ControllerCodec.decodeRequest(bytes("09" + NAME)));
        assertThrows(IllegalArgumentException.class, () -> ControllerCodec.decodeRequest(bytes("02" + NAME + "00")));
        assertThrows(IllegalArgumentException.class, () -> ControllerCodec.decodeRequest(bytes("05" + NAME + "00")));
        assertThrows(IllegalArgumentException.class, () -> ControllerCodec.decodeRequest(bytes("07" + NAME + "00")));
        assertThrows(IllegalArgumentException.class, () -> ControllerCodec.decodeRequest(bytes("08" + NAME + "00")));
    }

    private static void assertRequest(String golden, ControllerRequest request) {
        assertEquals(golden, hex(ControllerCodec.encode(request)));
        assertEquals(request, ControllerCodec.decodeRequest(bytes(golden)));
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    private static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex);
    }
}
