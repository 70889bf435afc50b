package io.ramjet.protocol.command;

/**
 * Answer to {@link CommandCode#LARGE_CHUNK_WRITE}: where the chunk's record is, for the chunk
 * table of the SEND that follows.
 *
 * @param physicalOffset the CommitLog offset of the CHUNK record
 */
public record ChunkWriteResponse(long physicalOffset) {
}
