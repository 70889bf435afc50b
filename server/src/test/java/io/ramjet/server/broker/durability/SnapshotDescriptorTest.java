package io.ramjet.server.broker.durability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ramjet.protocol.command.DestinationKind;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.subscription.QueueCursor;
import io.ramjet.server.broker.subscription.Subscription;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import io.ramjet.server.broker.timer.DelayedMessages;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Golden bytes of the consumption snapshot file: encoded from fixed contents, decoded back. */
class SnapshotDescriptorTest {

    private static final String GOLDEN = "52414d530000000200000000000004d2000000010000000174010000000100000001000000017404"
            + "ffffffff000000017300000003613d31000000000100000000000000040000000000000005000000"
            + "0000000006000000010000000000000004000000020000000100000000000001f400000000000023"
            + "280000000971756575653a2f2f71000000000000000000001f40000000020102b6b4bd71";
    private static final SubscriptionKey KEY = new SubscriptionKey("t", SubscriptionKind.SHARED_DURABLE, null, "s");

    private static SnapshotDescriptor.Contents contents() {
        QueueCursor cursor = QueueCursor.restore(0, 3, 5, List.of(new long[] {4, 2}));
        return new SnapshotDescriptor.Contents(1_234,
                List.of(new Destination("t", DestinationKind.TOPIC, 1, false)),
                List.of(new Subscription(KEY, "a=1", false, new QueueCursor[] {cursor})),
                Map.of(KEY, new long[] {6}),
                List.of(new DelayedMessages.Timer(500, 9_000, "queue://q", 0, 8_000)),
                new byte[] {1, 2});
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
        assertEquals(KEY, decoded.subscriptions().get(0).key());
        assertEquals("a=1", decoded.subscriptions().get(0).selector());
        assertArrayEquals(new long[] {6}, decoded.deliveryBounds().get(KEY));
        assertEquals(contents().timers(), decoded.timers());
        assertArrayEquals(new byte[] {1, 2}, decoded.transactions());
        assertEquals(GOLDEN, HexFormat.of().formatHex(SnapshotDescriptor.encode(decoded)));
    }
}
