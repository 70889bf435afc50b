package io.ramjet.server.broker.record;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ramjet.model.TxState;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Golden bytes of the transaction section of the snapshot: encoded from fixed contents, decoded back. */
class TransactionSnapshotTest {

    private static final String GOLDEN = "00000001000000000000002a00000000000003e8000000017800000006686f73"
            + "743a31010000000100000000000000640000003c000000017100000001000000"
            + "0000000003000000000000000400000000000000050000000000000006000000"
            + "0100000001740200000001630000000173000000010000000000000000000000"
            + "02000000010000000000000007000000000200000001000000000000012c0000"
            + "000000000064" + "00000001000000000000002a00000005616c696365";
    /** The section as written before it named owner users: its transactions have none. */
    private static final String GOLDEN_WITHOUT_OWNERS = GOLDEN.substring(0, GOLDEN.length() - 42);

    private static final TransactionSnapshot.Section SECTION = new TransactionSnapshot.Section(
            List.of(new TransactionSnapshot.SavedTransaction(42, 1_000, "x", "host:1",
                    List.of(new Half(100, 60, "q", 1, 3, 4, 5, 6)),
                    List.of(new AckRecord(new SubscriptionKey("t", SubscriptionKind.DURABLE, "c", "s").toRecord(),
                            List.of(new QueuePosition(0, 2)))), true, "alice")),
            List.of(new TransactionSnapshot.SavedDecision(7, "", TxState.ROLLED_BACK)),
            Map.of(300L, 100L));

    @Test
    void sectionHasItsLayout() throws Exception {
        assertEquals(GOLDEN, HexFormat.of().formatHex(TransactionSnapshot.encode(SECTION)));
    }

    @Test
    void sectionDecodesToWhatWasSaved() throws Exception {
        assertEquals(SECTION, TransactionSnapshot.decode(HexFormat.of().parseHex(GOLDEN)));
    }

    @Test
    void sectionWithoutOwnersDecodesWithNone() throws Exception {
        TransactionSnapshot.SavedTransaction saved = SECTION.transactions().get(0);
        assertEquals(null, TransactionSnapshot.decode(HexFormat.of().parseHex(GOLDEN_WITHOUT_OWNERS))
                .transactions().get(0).ownerUser());
        assertEquals(saved.halves(), TransactionSnapshot.decode(HexFormat.of().parseHex(GOLDEN_WITHOUT_OWNERS))
                .transactions().get(0).halves());
    }
}
