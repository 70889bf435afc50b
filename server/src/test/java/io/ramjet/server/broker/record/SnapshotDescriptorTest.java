package io.ramjet.server.broker.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ramjet.model.DestinationKind;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Golden bytes of the consumption snapshot file: encoded from fixed contents, decoded back. */
class SnapshotDescriptorTest {

    /** Version 2: one entry per pending offset, no producer section. */
    private static final String GOLDEN_V2 = "52414d530000000200000000000004d200000001000000017401000000010000"
            + "0001000000017404ffffffff000000017300000003613d310000000001000000"
            + "0000000004000000000000000500000000000000060000000100000000000000"
            + "04000000020000000100000000000001f4000000000000232800000009717565"
            + "75653a2f2f71000000000000000000001f40000000020102b6b4bd71";

    /** Version 3: pending offsets in runs, and the producer section. */
    private static final String GOLDEN = "52414d530000000300000000000004d200000001000000017401000000010000"
            + "0001000000017404ffffffff000000017300000003613d310000000001000000"
            + "0000000004000000000000000900000000000000060000000200000000000000"
            + "0400000003000000020000000000000008000000010000000000000001000000"
            + "00000001f400000000000023280000000971756575653a2f2f71000000000000"
            + "000000001f40000000020102000000010324556b3c";

    private static final RecordKey KEY =
            new SubscriptionKey("t", SubscriptionKind.SHARED_DURABLE, null, "s").toRecord();

    private static SnapshotDescriptor.Contents contents() {
        return new SnapshotDescriptor.Contents(1_234,
                List.of(new SnapshotDescriptor.DestinationEntry("t", DestinationKind.TOPIC, 1)),
                List.of(new SnapshotDescriptor.SubscriptionEntry(KEY, "a=1", false,
                        List.of(new SnapshotDescriptor.CursorEntry(4, 9, 6, List.of(new long[] {4, 3, 2}, new long[] {8, 1, 0}))))),
                List.of(new SnapshotDescriptor.TimerEntry(500, 9_000, "queue://q", 0, 8_000)),
                new byte[] {1, 2}, new byte[] {3});
    }

    @Test
    void snapshotHasItsLayout() throws Exception {
        assertEquals(GOLDEN, HexFormat.of().formatHex(SnapshotDescriptor.encode(contents())));
    }

    @Test
    void snapshotDecodesToWhatWasEncoded() throws Exception {
        SnapshotDescriptor.Contents decoded = SnapshotDescriptor.decode(HexFormat.of().parseHex(GOLDEN));
        assertEquals(1_234, decoded.position());
        assertEquals(contents().destinations(), decoded.destinations());
        SnapshotDescriptor.SubscriptionEntry subscription = decoded.subscriptions().get(0);
        assertEquals(KEY, subscription.key());
        assertEquals("a=1", subscription.selector());
        SnapshotDescriptor.CursorEntry cursor = subscription.cursors().get(0);
        assertEquals(List.of(4L, 9L, 6L), List.of(cursor.lowWater(), cursor.readOffset(), cursor.deliveryBound()));
        assertEquals(2, cursor.pendingRuns().size());
        assertArrayEquals(new long[] {4, 3, 2}, cursor.pendingRuns().get(0));
        assertArrayEquals(new long[] {8, 1, 0}, cursor.pendingRuns().get(1));
        assertEquals(contents().timers(), decoded.timers());
        assertArrayEquals(new byte[] {1, 2}, decoded.transactions());
        assertArrayEquals(new byte[] {3}, decoded.producers());
        assertEquals(GOLDEN, HexFormat.of().formatHex(SnapshotDescriptor.encode(decoded)));
    }

    @Test
    void aVersion2SnapshotIsReadWithEachPendingOffsetARunOfOne() throws Exception {
        SnapshotDescriptor.Contents decoded = SnapshotDescriptor.decode(HexFormat.of().parseHex(GOLDEN_V2));
        SnapshotDescriptor.CursorEntry cursor = decoded.subscriptions().get(0).cursors().get(0);
        assertEquals(List.of(4L, 5L, 6L), List.of(cursor.lowWater(), cursor.readOffset(), cursor.deliveryBound()));
        assertEquals(1, cursor.pendingRuns().size());
        assertArrayEquals(new long[] {4, 1, 2}, cursor.pendingRuns().get(0));
        assertEquals(contents().timers(), decoded.timers());
        assertArrayEquals(new byte[] {1, 2}, decoded.transactions());
        assertArrayEquals(new byte[0], decoded.producers());
    }
}
