package io.ramjet.protocol.command;

/** Response header of {@link CommandCode#ADMIN_PURGE} and {@link CommandCode#ADMIN_MOVE}: how many messages. */
public record AdminCount(long count) {
}
