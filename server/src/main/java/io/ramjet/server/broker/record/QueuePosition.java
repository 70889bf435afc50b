package io.ramjet.server.broker.record;

/** A message's place in its destination: message queue id and ConsumeQueue offset. */
public record QueuePosition(int queueId, long offset) {
}
