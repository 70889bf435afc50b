package io.ramjet.protocol.command;

import java.util.List;

/**
 * Response header of {@link CommandCode#BROWSE}: one page of messages, their records back to
 * back in the body as in a {@link PullResponse} ({@link PulledMessage#deliveryCount()} is the
 * count the message would be delivered with), and where the next page starts. A page may be
 * empty without being the last (the scan budget ran out); only {@code end} says the walk is over.
 *
 * @param messages   the page, in body order
 * @param nextQueueId message queue the next page starts in
 * @param nextOffset offset there the next page starts from
 * @param end        true when no message queue has anything left past this page
 */
public record BrowseResponse(List<PulledMessage> messages, int nextQueueId, long nextOffset, boolean end) {

    public BrowseResponse {
        messages = List.copyOf(messages);
    }
}
