package io.ramjet.server.broker.replication;

import io.ramjet.model.EpochEntry;
import io.ramjet.storage.DurableRename;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import io.ramjet.storage.ForceRecorder;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A broker's epoch history: which master epoch wrote which range of its CommitLog, as lines
 * {@code epoch startOffset}, oldest first, epochs and offsets increasing. A range ends where the
 * next starts, the last at the log's end. A master adds a line when it takes its epoch; a slave
 * copies the master's lines as it writes the bytes they cover; truncation drops the lines past
 * the cut. Empty means one unnamed epoch 0 from offset 0.
 *
 * <p>On disk: {@code epochs} in the data directory, replaced whole (temporary file, force, rename).
 * Threading: synchronized. After a crash: the old or the new file.
 */
public final class EpochFile {

    private final Path path;
    private final List<EpochEntry> entries = new ArrayList<>();

    /** Loads {@code directory}/epochs, if there is one. */
    private final ForceRecorder recorder;

    /** @param recorder told of the file's forces (see {@link ForceRecorder}) */
    public EpochFile(Path directory, ForceRecorder recorder) {
        this.recorder = recorder;
        this.path = directory.resolve("epochs");
        if (Files.exists(path)) {
            try {
                for (String line : Files.readAllLines(path, StandardCharsets.US_ASCII)) {
                    if (!line.isBlank()) {
                        String[] parts = line.trim().split("\\s+");
                        entries.add(new EpochEntry(Integer.parseInt(parts[0]), Long.parseLong(parts[1])));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + path, e);
            }
        }
    }

    public synchronized List<EpochEntry> entries() {
        return List.copyOf(entries);
    }

    /** The newest epoch, 0 when none was recorded. */
    public synchronized int lastEpoch() {
        return entries.isEmpty() ? 0 : entries.get(entries.size() - 1).epoch();
    }

    /**
     * Records that {@code epoch} writes from {@code startOffset} on; the same epoch again changes nothing.
     *
     * @throws IllegalArgumentException if the epoch or the offset goes backwards
     */
    public synchronized void begin(int epoch, long startOffset) {
        if (epoch == lastEpoch() && !entries.isEmpty()) {
            return;
        }
        EpochEntry last = entries.isEmpty() ? null : entries.get(entries.size() - 1);
        if (last != null && (epoch < last.epoch() || startOffset < last.startOffset())) {
            throw new IllegalArgumentException("epoch " + epoch + " at " + startOffset + " after " + last);
        }
        if (last != null && last.startOffset() == startOffset) {
            entries.remove(entries.size() - 1);
        }
        entries.add(new EpochEntry(epoch, startOffset));
        write();
    }

    /** The log was cut at {@code offset}: epochs that started at or after it wrote nothing that is left. */
    public synchronized void truncate(long offset) {
        if (entries.removeIf(e -> e.startOffset() >= offset)) {
            write();
        }
    }

    /** The epoch that wrote {@code offset}, 0 before the first entry. */
    public synchronized int epochAt(long offset) {
        return EpochHistory.epochAt(entries, offset);
    }

    /** Where the epoch written at {@code offset} ends: the next entry's start, or {@code Long.MAX_VALUE}. */
    public synchronized long epochEndAfter(long offset) {
        for (EpochEntry e : entries) {
            if (e.startOffset() > offset) {
                return e.startOffset();
            }
        }
        return Long.MAX_VALUE;
    }

    private void write() {
        StringBuilder text = new StringBuilder();
        entries.forEach(e -> text.append(e.epoch()).append(' ').append(e.startOffset()).append('\n'));
        Path temporary = path.resolveSibling("epochs.tmp");
        try {
            DurableRename.replace(path, temporary, ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.US_ASCII)),
                    recorder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path, e);
        }
    }
}
