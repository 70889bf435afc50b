package io.ramjet.server.broker.large;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The large-message uploads under way: chunks written whose SEND has not come yet. Retention
 * keeps the CommitLog from an open upload's first chunk on, since no message record names those
 * chunks yet. An upload ends when its SEND is stored (the message record then keeps its chunks,
 * see {@code RetentionScanner}) or when the connection that wrote it closes: its chunks are then
 * orphans that nothing names and no reader can reach, deleted with their segment. After a crash
 * no upload is open, so the chunks of every unfinished send are such orphans. In memory only.
 * Thread-safe.
 */
public final class OpenUploads {

    private record Upload(Object owner, long firstOffset) {
    }

    private final Map<Long, Upload> uploads = new ConcurrentHashMap<>();

    /** Notes a chunk of {@code uploadId} written at {@code offset} by {@code owner}'s connection. */
    public void chunkWritten(Object owner, long uploadId, long offset) {
        Objects.requireNonNull(owner, "owner");
        uploads.merge(uploadId, new Upload(owner, offset),
                (was, now) -> new Upload(was.owner(), Math.min(was.firstOffset(), offset)));
    }

    /** The upload's message record is stored (or refused): its chunks need no holding here any more. */
    public void ended(long uploadId) {
        uploads.remove(uploadId);
    }

    /** The owner's connection closed: every upload it left unfinished is abandoned. */
    public void closed(Object owner) {
        uploads.values().removeIf(u -> u.owner().equals(owner));
    }

    /** The lower of {@code oldest} and the first chunk of every open upload. */
    public long oldestNeeded(long oldest) {
        long min = oldest;
        for (Upload u : uploads.values()) {
            min = Math.min(min, u.firstOffset());
        }
        return min;
    }

    public int size() {
        return uploads.size();
    }
}
