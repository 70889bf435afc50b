package io.ramjet.protocol.command;

/**
 * Answer to PARKED_QUERY: {@code held} when the group stored the message (it delivers its own
 * copy); otherwise the group has fenced the sequence, durably, so it never stores it later.
 */
public record ParkedQueryResponse(boolean held) {
}
