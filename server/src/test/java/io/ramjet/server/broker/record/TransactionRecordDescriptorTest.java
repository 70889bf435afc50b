package io.ramjet.server.broker.record;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Golden bytes of the transaction decision records (VOTE, COMMIT, ROLLBACK), encoded and decoded. */
class TransactionRecordDescriptorTest {

    private static final String VOTE = "000000000000002a000000017800000006686f73743a31000000010000000171"
            + "00ffffffff000000017100000001000000010000000000000005" + "00000005616c696365";
    /** A VOTE as written before votes named their owner user. */
    private static final String VOTE_WITHOUT_OWNER = "000000000000002a000000017800000006686f73743a3100000001"
            + "0000000171" + "00ffffffff000000017100000001000000010000000000000005";
    private static final String COMMIT = "000000000000002a000000000000000100000001710000000100000000000000"
            + "0700000000000000640000003c00000000000001020000000100000000000000"
            + "c800000000000023280000000171000000020000000000001f40000000010000"
            + "00017100ffffffff000000017100000001000000010000000000000005";
    private static final String ROLLBACK = "000000000000002a0000000178";

    private static final List<AckRecord> ACKS = List.of(new AckRecord(
            new SubscriptionKey("q", SubscriptionKind.QUEUE, null, "q").toRecord(), List.of(new QueuePosition(1, 5))));

    private static ByteBuffer golden(String hex, MessageRecord record) {
        assertEquals(TransactionRecordDescriptor.DESTINATION, record.destination());
        assertEquals(hex, HexFormat.of().formatHex(record.body()));
        return ByteBuffer.wrap(HexFormat.of().parseHex(hex));
    }

    @Test
    void vote() {
        var vote = TransactionRecordDescriptor.decodeVote(golden(VOTE,
                TransactionRecordDescriptor.vote(42, "x", "host:1", ACKS, "alice")));
        assertEquals(new TransactionRecordDescriptor.Vote(42, "x", "host:1", ACKS, "alice", List.of()), vote);
    }

    @Test
    void voteWithoutOwnerNamesNone() {
        var vote = TransactionRecordDescriptor.decodeVote(ByteBuffer.wrap(HexFormat.of().parseHex(VOTE_WITHOUT_OWNER)));
        assertEquals(new TransactionRecordDescriptor.Vote(42, "x", "host:1", ACKS, null, List.of()), vote);
    }

    @Test
    void commit() {
        Half visible = new Half(100, 60, "q", 1, 0x0102, 0, 0, 0);
        Half delayed = new Half(200, 0, "q", 2, 0, 9_000, 8_000, 0);
        var commit = TransactionRecordDescriptor.decodeCommit(golden(COMMIT,
                TransactionRecordDescriptor.commit(42, "", List.of(visible), new long[] {7}, List.of(delayed), ACKS)));
        assertEquals(new TransactionRecordDescriptor.Commit(42, "", new TransactionRecordDescriptor.Sections(
                List.of(new TransactionRecordDescriptor.Slot(visible, 7)), List.of(delayed), ACKS), List.of()), commit);
    }

    @Test
    void rollback() {
        var rollback = TransactionRecordDescriptor.decodeRollback(golden(ROLLBACK,
                TransactionRecordDescriptor.rollback(42, "x")));
        assertEquals(new TransactionRecordDescriptor.Rollback(42, "x"), rollback);
    }
}
