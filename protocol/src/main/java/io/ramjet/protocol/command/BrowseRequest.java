package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * Header of {@link CommandCode#BROWSE}: one page of a queue's messages from a position, for a
 * {@code QueueBrowser}. Browsing claims nothing: the messages stay visible to the queue's
 * consumers, in flight ones stay in flight, and no delivery is counted. The page holds the
 * queue's unacknowledged messages (visible or in flight), not expired, in offset order within
 * each message queue, the message queues one after another. Answered with a {@link BrowseResponse}
 * whose position continues the walk; a queue that does not exist is an empty last page.
 *
 * @param queue       the queue's name
 * @param queueId     message queue to start in; 0 for the first page
 * @param fromOffset  offset in it to start from; 0 for the first page
 * @param maxMessages at least 1; the broker may answer fewer (a byte budget, a scan budget)
 * @param selector    the browser's message selector, null for every message: the broker skips
 *                    entries by its own tag masks and evaluates it on the records it reads (a
 *                    selector it cannot parse is a {@link ErrorStatus#BAD_REQUEST})
 */
public record BrowseRequest(String queue, int queueId, long fromOffset, int maxMessages, String selector) {

    public BrowseRequest {
        Objects.requireNonNull(queue, "queue");
        if (maxMessages < 1) {
            throw new IllegalArgumentException("maxMessages " + maxMessages);
        }
        if (queueId < 0 || fromOffset < 0) {
            throw new IllegalArgumentException("position " + queueId + "/" + fromOffset);
        }
    }
}
