package io.ramjet.model;

/** A message of a subscription: its message queue and offset there. */
public record MessagePosition(int queueId, long queueOffset) {
}
