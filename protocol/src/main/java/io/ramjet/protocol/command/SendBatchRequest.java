package io.ramjet.protocol.command;

import java.util.List;
import java.util.Objects;

/**
 * Header of {@link CommandCode#SEND_BATCH}: several messages to one destination in one frame.
 * The frame body is the messages' bytes back to back, each {@link BatchEntry#length()} long,
 * in the order of {@code messages}; the broker appends them in that order and answers once,
 * after the last is durable when any of them is persistent.
 *
 * @param destination queue or topic name
 * @param kind        queue or topic
 * @param messages      the messages, at least one
 * @param transactionId 0 for plain sends; else the transaction all of them belong to, as in
 *                      {@link SendRequest#transactionId()}
 */
public record SendBatchRequest(String destination, DestinationKind kind, List<BatchEntry> messages,
                               long transactionId) {

    /** A batch outside any transaction. */
    public SendBatchRequest(String destination, DestinationKind kind, List<BatchEntry> messages) {
        this(destination, kind, messages, 0);
    }

    public SendBatchRequest {
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(kind, "kind");
        messages = List.copyOf(messages);
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("an empty batch");
        }
    }

    /** The body length the entries add up to. */
    public long bodyLength() {
        long total = 0;
        for (BatchEntry e : messages) {
            total += e.length();
        }
        return total;
    }
}
