package io.ramjet.protocol.command;

import io.ramjet.model.DestinationKind;
import java.util.Objects;

/**
 * Header of {@link CommandCode#LARGE_CHUNK_WRITE}: the frame body is one chunk of a large
 * message's body. The broker stores it as a CHUNK record, invisible to consumers until a SEND
 * whose chunk table names it, and answers with a {@link ChunkWriteResponse}. Asks for the right
 * to send to the destination (and to create it when it does not exist), as the SEND will.
 *
 * @param destination the destination the message goes to
 * @param kind        queue or topic
 * @param uploadId    the random id of this message's upload, the same for all its chunks
 * @param index       the chunk's place in the body: 0, 1, ...
 */
public record ChunkWriteRequest(String destination, DestinationKind kind, long uploadId, int index) {
    public ChunkWriteRequest {
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(kind, "kind");
        if (index < 0) {
            throw new IllegalArgumentException("chunk index " + index);
        }
    }
}
