package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * Header of {@link CommandCode#LARGE_CHUNK_READ}: asks for the body of one chunk that a large
 * message's chunk table names. The answer's frame body is the chunk's bytes. Asks for the right
 * to consume or browse {@code destination}, and the chunk must belong to upload {@code uploadId}.
 *
 * @param destination    the destination the message was received or browsed from
 * @param uploadId       the upload id of the message's chunk table
 * @param physicalOffset the chunk record's CommitLog offset, from the table
 */
public record ChunkReadRequest(String destination, long uploadId, long physicalOffset) {
    public ChunkReadRequest {
        Objects.requireNonNull(destination, "destination");
    }
}
