package io.ramjet.protocol.command;

/**
 * Header of {@link CommandCode#REPLICA_FETCH}: a slave asks for the master's CommitLog bytes
 * from {@code offset}, which is also its report: everything below it is flushed on the slave.
 * When there is nothing yet the master holds the request up to {@code holdMillis}. Response
 * {@link ReplicaFetchResponse}, body = the raw bytes.
 *
 * @param brokerId   the slave's id in the group
 * @param offset     the slave's CommitLog end, flushed; where the bytes must start
 * @param maxBytes   about how many bytes to send (at least one whole record)
 * @param holdMillis how long the master may wait for new bytes
 */
public record ReplicaFetchRequest(long brokerId, long offset, int maxBytes, long holdMillis) {
}
