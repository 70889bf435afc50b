package io.ramjet.storage;

import static io.ramjet.storage.ConsumeQueueEntryDescriptor.LENGTH;
import static io.ramjet.storage.ConsumeQueueEntryDescriptor.PHYSICAL_OFFSET_OFFSET;
import static io.ramjet.storage.ConsumeQueueEntryDescriptor.SIZE_OFFSET;
import static io.ramjet.storage.ConsumeQueueEntryDescriptor.TAG_SIGNATURE_OFFSET;

import io.ramjet.storage.RecordReadException.Reason;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The index of one message queue (destination, queue id): entry {@code n} says where the
 * queue's {@code n}-th message lies in the CommitLog.
 *
 * <p>On disk: {@link MappedFile}s in the queue's directory, each named by its first logical
 * offset and holding as many entries as its size says, laid out by
 * {@link ConsumeQueueEntryDescriptor}. Files grow: a queue's first file holds
 * {@link ConsumeQueueEntryDescriptor#FIRST_FILE_ENTRIES} entries and each next one twice the
 * last, up to the configured entries per file (see
 * {@link ConsumeQueueEntryDescriptor#nextFileEntries}), so a queue of one message costs 20 KiB,
 * not the full file; nothing but the file sizes records this, so files of any sizes load.
 *
 * <p>Once the last file is half full, the next one is prepared on the preparer thread given
 * ({@link NextFile}): creating a file (zeros, a force, a rename) takes milliseconds, which on the
 * dispatcher every message of the store would wait behind. A queue's first file
 * comes from a {@link FirstFilePool} (renamed into the queue's directory), or is created by the
 * dispatcher when none is ready.
 *
 * <p>Entries are written and forced through the mappings only, so no file keeps a descriptor open.
 *
 * <p>Threading: only a dispatch pass (one thread at a time, see {@link Dispatcher}), or the
 * opening thread during recovery, calls
 * {@link #put}, {@link #recover}, {@link #deleteFilesBelow} and {@link #deleteAll}; reads are
 * lock-free from any thread and see entries below {@link #nextOffset()}, which is published
 * after each entry; a reader still holding a deleted file reads its mapping, never a fault.
 *
 * <p>After a crash: {@link #recover} keeps the entries that point below the checkpoint and cuts
 * the rest, which the CommitLog scan then dispatches again; it writes (zeros and forces) only
 * where entries were cut, so a clean restart writes nothing. Entries of committed half records
 * point back in the log (their COMMIT record came later than the records they point at);
 * recovery keeps one when the record there is an intact half, and the COMMIT is replayed
 * idempotently when it lies after the checkpoint.
 */
final class ConsumeQueue {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumeQueue.class);

    private final Path directory;
    private final int entriesPerFile;
    private final long minFreeSpace;
    private final ForceRecorder recorder;
    private final ConcurrentSkipListMap<Long, MappedFile> files = new ConcurrentSkipListMap<>();
    private volatile long minOffset;
    private volatile long nextOffset;
    private long flushedOffset;
    private final NextFile nextFile;
    private final FirstFilePool firstFiles;

    /**
     * @param preparer runs the preparation of the next file
     * @param firstFiles where a first file (of a new queue, or of one emptied by retention) comes from
     */
    ConsumeQueue(Path directory, int entriesPerFile, long minFreeSpace, Executor preparer, FirstFilePool firstFiles,
                 ForceRecorder recorder) {
        this.recorder = recorder;
        this.directory = directory;
        this.entriesPerFile = entriesPerFile;
        this.minFreeSpace = minFreeSpace;
        this.nextFile = new NextFile(directory, preparer);
        this.firstFiles = firstFiles;
        for (Path path : MappedFile.list(directory)) {
            MappedFile file = MappedFile.open(path).withoutChannel();
            files.put(file.start(), file);
        }
        if (!files.isEmpty()) {
            minOffset = files.firstKey();
            MappedFile last = files.lastEntry().getValue();
            nextOffset = last.start() + last.size() / LENGTH;
        }
    }

    long minOffset() {
        return minOffset;
    }

    /** One past the last entry: the logical offset the next message of the queue gets. */
    long nextOffset() {
        return nextOffset;
    }

    /**
     * Adds an entry at {@code queueOffset}: the next offset, or any offset for a queue without
     * files (rebuilt after retention). Ignores an offset already present.
     */
    boolean put(long queueOffset, long physicalOffset, int size, long tagSignature) {
        long next = files.isEmpty() ? queueOffset : nextOffset;
        if (queueOffset < next) {
            return false;
        }
        if (queueOffset > next) {
            LOG.error("ConsumeQueue {}: entry {} would leave a gap after {}; not added", directory, queueOffset, next);
            return false;
        }
        MappedFile file = fileForAppend(next);
        int at = ConsumeQueueEntryDescriptor.position((int) (next - file.start()));
        ByteBuffer buffer = file.buffer();
        buffer.putLong(at + PHYSICAL_OFFSET_OFFSET, physicalOffset);
        buffer.putLong(at + TAG_SIGNATURE_OFFSET, tagSignature);
        buffer.putInt(at + SIZE_OFFSET, size);
        nextOffset = next + 1;
        prepareNextWhenHalfFull(file, next + 1);
        return true;
    }

    private void prepareNextWhenHalfFull(MappedFile file, long end) {
        int entries = entriesIn(file);
        if (!nextFile.pending() && end - file.start() >= entries / 2) {
            nextFile.prepare(file.start() + entries, nextFileSize(entries), minFreeSpace);
        }
    }

    /** Bytes of the file that follows one of {@code previousEntries} (0 for the first). */
    private int nextFileSize(int previousEntries) {
        return ConsumeQueueEntryDescriptor.position(
                ConsumeQueueEntryDescriptor.nextFileEntries(previousEntries, entriesPerFile));
    }

    private MappedFile fileForAppend(long offset) {
        Map.Entry<Long, MappedFile> last = files.lastEntry();
        if (last != null && offset < last.getKey() + entriesIn(last.getValue())) {
            return last.getValue();
        }
        int size = nextFileSize(last == null ? 0 : entriesIn(last.getValue()));
        MappedFile prepared = last == null ? firstFiles.take(directory, offset, size) : nextFile.take(offset);
        MappedFile created = (prepared != null ? prepared : MappedFile.create(directory, offset, size, minFreeSpace))
                .withoutChannel();
        files.put(offset, created);
        if (last == null) {
            minOffset = offset;
        }
        return created;
    }

    /**
     * Up to {@code max} entries from {@code from}; empty if {@code from} is at or past the end.
     *
     * @throws RecordReadException if {@code from} is below the oldest retained entry
     */
    List<ConsumeQueueEntry> read(long from, int max) {
        long next = nextOffset;
        if (from < minOffset) {
            throw new RecordReadException(Reason.BELOW_RETAINED, from, "oldest retained entry " + minOffset);
        }
        List<ConsumeQueueEntry> entries = new ArrayList<>((int) Math.max(0, Math.min(max, next - from)));
        for (long offset = from; offset < next && entries.size() < max; offset++) {
            Map.Entry<Long, MappedFile> file = files.floorEntry(offset);
            if (file == null) {
                throw new RecordReadException(Reason.BELOW_RETAINED, offset, "queue file deleted");
            }
            entries.add(entry(file.getValue(), offset));
        }
        return entries;
    }

    /**
     * Fills {@code slice} with up to its capacity of entries from {@code from}: empty if
     * {@code from} is at or past the end. One file lookup per file the slice spans, nothing
     * allocated.
     *
     * @throws RecordReadException if {@code from} is below the oldest retained entry
     */
    void read(long from, ConsumeQueueSlice slice) {
        long next = nextOffset;
        if (from < minOffset) {
            throw new RecordReadException(Reason.BELOW_RETAINED, from, "oldest retained entry " + minOffset);
        }
        slice.clear(from);
        long offset = from;
        while (offset < next && slice.count() < slice.capacity()) {
            Map.Entry<Long, MappedFile> found = files.floorEntry(offset);
            if (found == null) {
                throw new RecordReadException(Reason.BELOW_RETAINED, offset, "queue file deleted");
            }
            MappedFile file = found.getValue();
            ByteBuffer buffer = file.buffer();
            long fileEnd = Math.min(next, file.start() + entriesIn(file));
            for (; offset < fileEnd && slice.count() < slice.capacity(); offset++) {
                int at = ConsumeQueueEntryDescriptor.position((int) (offset - file.start()));
                slice.add(buffer.getLong(at + PHYSICAL_OFFSET_OFFSET), buffer.getInt(at + SIZE_OFFSET),
                        buffer.getLong(at + TAG_SIGNATURE_OFFSET));
            }
        }
    }

    private static ConsumeQueueEntry entry(MappedFile file, long offset) {
        int at = ConsumeQueueEntryDescriptor.position((int) (offset - file.start()));
        ByteBuffer buffer = file.buffer();
        return new ConsumeQueueEntry(offset, buffer.getLong(at + PHYSICAL_OFFSET_OFFSET),
                buffer.getInt(at + SIZE_OFFSET), buffer.getLong(at + TAG_SIGNATURE_OFFSET));
    }

    /**
     * Says whether an entry that points back in the log, below an earlier entry of its queue,
     * is a committed half: an intact PREPARED record of exactly that size at that offset.
     */
    @FunctionalInterface
    interface CommittedHalfCheck {
        boolean isCommittedHalf(long physicalOffset, int size);
    }

    /**
     * Keeps the leading entries that are written, end at or below {@code checkpoint} and follow
     * in log order, or point back at a half record {@code halves} confirms (a transaction's
     * COMMIT reserves offsets for records written before the queue's latest entry); cuts the
     * rest. For the opening thread, before dispatching.
     */
    void recover(long checkpoint) {
        recover(checkpoint, (physicalOffset, size) -> false);
    }

    /** As {@link #recover(long)}, keeping the backward entries that {@code halves} confirms. */
    void recover(long checkpoint, CommittedHalfCheck halves) {
        while (!files.isEmpty()) {
            MappedFile file = files.lastEntry().getValue();
            int kept = keptEntries(file, checkpoint, halves);
            if (kept == 0 && files.size() > 1) {
                files.remove(file.start());
                file.delete();
                continue;
            }
            int written = writtenEntries(file);
            if (kept < written) {
                file.zero(ConsumeQueueEntryDescriptor.position(kept), ConsumeQueueEntryDescriptor.position(written));
            }
            nextOffset = file.start() + kept;
            return;
        }
    }

    private static int keptEntries(MappedFile file, long checkpoint, CommittedHalfCheck halves) {
        ByteBuffer buffer = file.buffer();
        long expectedAtLeast = 0;
        int entries = entriesIn(file);
        for (int i = 0; i < entries; i++) {
            int at = ConsumeQueueEntryDescriptor.position(i);
            long physical = buffer.getLong(at + PHYSICAL_OFFSET_OFFSET);
            int size = buffer.getInt(at + SIZE_OFFSET);
            if (size <= 0 || physical < 0 || physical + size > checkpoint) {
                return i;
            }
            if (physical < expectedAtLeast) {
                if (!halves.isCommittedHalf(physical, size)) {
                    return i;
                }
            } else {
                expectedAtLeast = physical + size;
            }
        }
        return entries;
    }

    /** One past the last entry with any byte set: what a cut must zero. */
    private static int writtenEntries(MappedFile file) {
        ByteBuffer buffer = file.buffer();
        for (int i = entriesIn(file) - 1; i >= 0; i--) {
            int at = ConsumeQueueEntryDescriptor.position(i);
            if (buffer.getLong(at + PHYSICAL_OFFSET_OFFSET) != 0 || buffer.getInt(at + SIZE_OFFSET) != 0
                    || buffer.getLong(at + TAG_SIGNATURE_OFFSET) != 0) {
                return i + 1;
            }
        }
        return 0;
    }

    private static int entriesIn(MappedFile file) {
        return file.size() / LENGTH;
    }

    /**
     * Forces the entries written since the last flush, and nothing when there are none: a
     * checkpoint flushes every queue of the store, most of them idle. A new file's directories
     * are forced with its first entries, through {@code directories} (shared by the queues of one
     * checkpoint). For one thread at a time.
     */
    void flush(DirectoryForces directories) {
        long next = nextOffset;
        if (next <= flushedOffset) {
            return;
        }
        Long from = files.floorKey(flushedOffset);
        for (MappedFile file : (from == null ? files : files.tailMap(from)).values()) {
            long first = Math.max(flushedOffset, file.start());
            long end = Math.min(next, file.start() + entriesIn(file));
            if (end > first) {
                int start = ConsumeQueueEntryDescriptor.position((int) (first - file.start()));
                int stop = ConsumeQueueEntryDescriptor.position((int) (end - file.start()));
                file.force(start, stop, directories);
                recorder.forced(file.path(), start, file.buffer().duplicate().limit(stop).position(start));
            }
        }
        flushedOffset = next;
    }

    void close() {
        nextFile.discard();
        files.values().forEach(MappedFile::close);
    }

    /** Deletes every file; the queue must not be used after (its directory is the table's to delete). */
    void deleteAll() {
        nextFile.discard();
        for (MappedFile file : files.values()) {
            file.delete();
        }
        files.clear();
    }

    /**
     * Deletes files whose every entry points below {@code physicalOffset}, never the last one.
     *
     * @return how many were deleted
     */
    int deleteFilesBelow(long physicalOffset) {
        int deleted = 0;
        while (files.size() > 1) {
            MappedFile file = files.firstEntry().getValue();
            ConsumeQueueEntry last = entry(file, file.start() + entriesIn(file) - 1);
            if (last.physicalOffset() + last.size() > physicalOffset) {
                break;
            }
            minOffset = files.higherKey(file.start());
            files.remove(file.start());
            file.delete();
            deleted++;
        }
        return deleted;
    }
}
