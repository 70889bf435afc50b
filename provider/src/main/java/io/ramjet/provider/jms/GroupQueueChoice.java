package io.ramjet.provider.jms;

import io.ramjet.protocol.message.MessageHeaders;

/**
 * The message queue choice for a message of a group ({@code JMSXGroupID}): a stable hash of the
 * group id, so every producer of every session and connection sends a group to the same message
 * queue of a destination while its route (brokers and queue counts) stays the same, and the group
 * sits in one ConsumeQueue in send order (RocketMQ's ordered messages with a key selector).
 * {@link String#hashCode()} is fixed by the Java Language Specification, so clients on any JVM agree.
 */
final class GroupQueueChoice {

    private static final String GROUP_ID = "JMSXGroupID";

    private GroupQueueChoice() {
    }

    /**
     * The group id of a message about to be sent, or null: only a string value counts, as the
     * broker reads it.
     */
    static String groupId(MessageHeaders headers) {
        return headers.properties().get(GROUP_ID) instanceof String id ? id : null;
    }

    /** A non-negative choice, reduced by the client modulo the destination's brokers and queues. */
    static int of(String groupId) {
        int h = groupId.hashCode();
        return (h ^ (h >>> 16)) & Integer.MAX_VALUE;
    }
}
