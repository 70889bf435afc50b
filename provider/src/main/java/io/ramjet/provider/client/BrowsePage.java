package io.ramjet.provider.client;

import java.util.List;

/**
 * One page of a queue browse on one broker: the messages (deliveries with no consumer: nothing
 * was claimed) and where the next page starts, unless {@code end}.
 */
public record BrowsePage(List<Delivery> messages, int nextQueueId, long nextOffset, boolean end) {
    public BrowsePage {
        messages = List.copyOf(messages);
    }
}
