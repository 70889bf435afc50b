package io.ramjet.provider.client;

/** A session: its id within the connection and its acknowledgement mode (a {@code Session} constant). */
public record SessionInfo(long sessionId, int acknowledgeMode) {
}
