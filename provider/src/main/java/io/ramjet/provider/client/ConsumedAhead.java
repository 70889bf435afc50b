package io.ramjet.provider.client;

import io.ramjet.model.MessagePosition;
import io.ramjet.protocol.command.AckRequest;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits what a transaction consumed from one broker into frames: TX_ACKS batches sent ahead, and
 * the rest that its TX_PREPARE, TX_END or TX_COMMIT_COUNTED carries, each within half the frame
 * limit (the other half is room for the rest of the header). A position is counted at
 * {@value #POSITION_BYTES} bytes and a consumer's group at {@value #GROUP_BYTES} plus its names',
 * above what the header encoding takes for them.
 *
 * @param ahead the TX_ACKS batches, in order, possibly none
 * @param rest  what the deciding request names itself
 */
record ConsumedAhead(List<List<AckRequest>> ahead, List<AckRequest> rest) {

    static final int POSITION_BYTES = 24;
    static final int GROUP_BYTES = 64;

    /** {@code acks} cut into batches of at most half of {@code maxFrameLength} each; the last one is the rest. */
    static ConsumedAhead split(List<AckRequest> acks, int maxFrameLength) {
        long budget = Math.max(maxFrameLength / 2, GROUP_BYTES + 1024);
        List<List<AckRequest>> batches = new ArrayList<>();
        List<AckRequest> batch = new ArrayList<>();
        long used = 0;
        for (AckRequest ack : acks) {
            long groupCost = groupCost(ack);
            int from = 0;
            List<MessagePosition> positions = ack.messages();
            do {
                if (used + groupCost + POSITION_BYTES > budget && !batch.isEmpty()) {
                    batches.add(batch);
                    batch = new ArrayList<>();
                    used = 0;
                }
                int fit = (int) Math.max(1, (budget - used - groupCost) / POSITION_BYTES);
                int to = Math.min(positions.size(), from + fit);
                batch.add(new AckRequest(ack.consumerId(), ack.subscription(), positions.subList(from, to)));
                used += groupCost + (long) (to - from) * POSITION_BYTES;
                from = to;
            } while (from < positions.size());
        }
        batches.add(batch);
        return new ConsumedAhead(List.copyOf(batches.subList(0, batches.size() - 1)), batches.get(batches.size() - 1));
    }

    private static long groupCost(AckRequest ack) {
        String clientId = ack.subscription().clientId();
        return GROUP_BYTES + 4L * (ack.subscription().destination().length() + ack.subscription().name().length()
                + (clientId == null ? 0 : clientId.length()));
    }
}
