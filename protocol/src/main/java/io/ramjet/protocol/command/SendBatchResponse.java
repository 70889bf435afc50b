package io.ramjet.protocol.command;

import java.util.List;

/**
 * Response header of {@link CommandCode#SEND_BATCH}: where each message went, in the order of
 * the request. A queue offset of -1 marks a delayed message not yet in its queue, or one
 * already expired on arrival, which is not stored (as in {@link SendResponse}).
 */
public record SendBatchResponse(List<MessagePosition> positions) {

    public SendBatchResponse {
        positions = List.copyOf(positions);
    }
}
