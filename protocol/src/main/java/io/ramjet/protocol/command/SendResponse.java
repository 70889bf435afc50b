package io.ramjet.protocol.command;

/**
 * Response header of {@link CommandCode#SEND}: where the message was stored.
 *
 * @param queueId        its message queue
 * @param queueOffset    its offset in that queue, or -1 for a delayed message not yet in its queue
 *                       and for one already expired on arrival, which is not stored
 * @param physicalOffset its record's CommitLog offset, -1 when not stored
 */
public record SendResponse(int queueId, long queueOffset, long physicalOffset) {
}
