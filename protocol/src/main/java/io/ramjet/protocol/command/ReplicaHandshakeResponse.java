package io.ramjet.protocol.command;

import io.ramjet.model.EpochEntry;

import java.util.List;

/**
 * Response header of {@link CommandCode#REPLICA_HANDSHAKE}: what a slave needs to find where its
 * log and the master's agree (the last offset their epoch histories share) before fetching.
 *
 * @param epochs      the master's epoch history, oldest first
 * @param endOffset   the master's CommitLog write position
 * @param minOffset   the master's oldest retained CommitLog offset
 * @param segmentSize the master's CommitLog segment size, which the slave's must equal
 */
public record ReplicaHandshakeResponse(List<EpochEntry> epochs, long endOffset, long minOffset, int segmentSize) {

    public ReplicaHandshakeResponse {
        epochs = List.copyOf(epochs);
    }
}
