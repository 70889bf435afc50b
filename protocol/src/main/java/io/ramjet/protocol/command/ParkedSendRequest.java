package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * Header of PARKED_SEND: an idempotent producer's send that the master of group {@code originGroup}
 * may have stored (it was written there and never answered), to be kept on the receiving group
 * until the origin group answers whether it holds {@code send}'s producer id and sequence. The
 * body is a SEND's body.
 *
 * @param originGroup the broker group (brokerName) whose master may hold the message
 * @param send        the send as it went to the origin group: a producer id and sequence, no transaction
 */
public record ParkedSendRequest(String originGroup, SendRequest send) {

    public ParkedSendRequest {
        Objects.requireNonNull(originGroup, "originGroup");
        Objects.requireNonNull(send, "send");
        if (originGroup.isEmpty()) {
            throw new IllegalArgumentException("a parked send names its origin group");
        }
        if (send.producerId() == 0 || send.transactionId() != 0) {
            throw new IllegalArgumentException("a parked send has a producer id and no transaction");
        }
    }
}
