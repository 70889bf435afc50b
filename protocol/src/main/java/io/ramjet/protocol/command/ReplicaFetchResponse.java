package io.ramjet.protocol.command;

/**
 * Response header of {@link CommandCode#REPLICA_FETCH}; the body holds whole records (or a
 * segment's end padding) to write at {@code offset}, possibly none.
 *
 * @param offset    where the body's bytes go: the offset asked for
 * @param epoch     the master epoch the body's bytes were written in (a body never spans two)
 * @param endOffset the master's CommitLog write position when it answered
 */
public record ReplicaFetchResponse(long offset, int epoch, long endOffset) {
}
