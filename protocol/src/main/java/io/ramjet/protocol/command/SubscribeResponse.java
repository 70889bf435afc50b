package io.ramjet.protocol.command;

/** Response header of {@link CommandCode#SUBSCRIBE}: how many message queues the subscription reads. */
public record SubscribeResponse(int queueCount) {
}
