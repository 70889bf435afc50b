package io.ramjet.server.broker.record;

/**
 * A subscription key as the broker's records and snapshot hold it: destination, kind code (the
 * subscription kind's fixed code), client id (null for none), name.
 */
public record RecordKey(String destination, int kind, String clientId, String name) {
}
