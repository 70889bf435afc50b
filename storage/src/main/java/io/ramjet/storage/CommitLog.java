package io.ramjet.storage;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.MessageRecordDescriptor;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordStatus;
import io.ramjet.model.record.RecordType;
import io.ramjet.storage.RecordReadException.Reason;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The append-only log of every record, as {@link MappedFile} segments under one directory,
 * contiguous and each named by its start offset. A record never spans two segments: a blank
 * record pads a segment's end.
 *
 * <p>Threading: {@link #append} is for one thread at a time (the store's append lock), as are
 * {@link #recover} and {@link #close}; it
 * publishes each record by a volatile write of {@link #writePosition()} after writing it.
 * {@link #read} is lock-free from any thread and sees only published records. {@link #flush}
 * may be called from any thread; calls are serialized. After a crash: {@link #recover} scans
 * from a known-good offset, validating checksums, and truncates at the first record that is
 * torn, corrupt or not where the previous one ended; later segments are deleted.
 *
 * <p>Checksums: the recovery scan verifies every record it passes, and {@link #read} verifies
 * the records that are cold: below where this process's scan began (bytes it neither wrote nor
 * verified) or before the segment preceding the active one (likely read back from the disk,
 * not the page cache). A record this process wrote or verified, in the active or the previous
 * segment, is checked for layout only: computing its CRC32C again on every pull and dispatch
 * cost more than the copy it guards against, for bytes already known intact.
 *
 * <p>The next segment is zero-filled ahead of need on an allocator thread, under a name that
 * {@link MappedFile#list} discards, so a rollover only renames and maps it: an empty log starts
 * preparing its first segment when it opens, and a segment half full has the next prepared. A
 * fresh store therefore holds one segment, not two, and its first append does not wait for a
 * whole segment to be zero-filled.
 *
 * <p>Disk room: a segment created for a message record (see {@link RecordType#carriesMessage()})
 * must leave {@code minFreeSpace} usable; one created for a control record only a quarter of
 * it, the reserve that lets acknowledgements drain a full store. A message is taken only while
 * the segment after the active one is prepared or fits with {@code minFreeSpace} left, so that
 * when messages have filled the active segment, control records can always roll into the next
 * one whatever the segment size: the disk is asked for that about eight times per half segment
 * of appends while the next segment is not prepared (the other half of the time it is). A
 * segment created inside the reserve takes no message until the disk has {@code minFreeSpace}
 * usable again, and after a message could not get a new segment, messages are refused until a
 * segment and the margin fit ({@link #messageRefusal()}).
 */
final class CommitLog {

    private static final Logger LOG = LoggerFactory.getLogger(CommitLog.class);

    /** Result of a recovery scan. */
    record Scan(long records, long end, long truncatedBytes) {
    }

    private final Path directory;
    private final int segmentSize;
    private final long minFreeSpace;
    private final ForceRecorder recorder;
    private final ConcurrentSkipListMap<Long, MappedFile> segments = new ConcurrentSkipListMap<>();
    private volatile long writePosition;
    private volatile long flushedPosition;
    private volatile long forces;
    /** Records are encoded here, then written with one positional write: see {@link MappedFile}. */
    private ByteBuffer scratch = ByteBuffer.allocateDirect(64 * 1024);
    private final ExecutorService allocator = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ramjet-allocate");
        t.setDaemon(true);
        return t;
    });
    private final NextFile nextFile;
    /** Start of the active segment if it was created inside the reserve, else -1. */
    private volatile long reserveSegment = -1;
    /** Whether the last message that needed a new segment did not get one. */
    private volatile boolean messageRolloverFailed;
    /** Messages may be appended below this position without asking the disk again for the next segment's room. */
    private volatile long roomKnownUntil;
    /** Where the recovery scan began: records from there on were verified or written here. */
    private long verifiedFrom = Long.MAX_VALUE;
    /** Reads below this offset verify the checksum: see the class comment. */
    private volatile long hotFrom = Long.MAX_VALUE;

    CommitLog(Path directory, int segmentSize, long minFreeSpace, ForceRecorder recorder) {
        this.recorder = recorder;
        this.directory = directory;
        this.segmentSize = segmentSize;
        this.minFreeSpace = minFreeSpace;
        this.nextFile = new NextFile(directory, allocator);
        long expected = -1;
        for (Path path : MappedFile.list(directory)) {
            MappedFile segment = MappedFile.open(path);
            if (expected >= 0 && segment.start() != expected) {
                throw new StoreException("CommitLog gap: " + path + " does not start at " + expected);
            }
            segments.put(segment.start(), segment);
            expected = segment.end();
        }
    }

    long minOffset() {
        Map.Entry<Long, MappedFile> first = segments.firstEntry();
        return first == null ? writePosition : first.getKey();
    }

    long writePosition() {
        return writePosition;
    }

    long flushedPosition() {
        return flushedPosition;
    }

    /** How many flushes forced something: fewer than durable appends when they share forces. */
    long forceCount() {
        return forces;
    }

    int segmentCount() {
        return segments.size();
    }

    /**
     * Appends {@code record}, for one thread at a time, and returns its offset and size.
     *
     * @throws StoreFullException if a message record finds no room ({@link #messageRefusal()})
     *                            or no segment can be created; nothing was appended
     */
    AppendResult append(MessageRecord record, long storeTimestamp) {
        return append(record, ByteBuffer.wrap(record.body()), storeTimestamp);
    }

    /**
     * As {@link #append(MessageRecord, long)} with the remaining bytes of {@code body} in place of
     * the record's own body; {@code body} is read before this returns, its position unmoved.
     */
    AppendResult append(MessageRecord record, ByteBuffer body, long storeTimestamp) {
        int size = MessageRecordDescriptor.recordLength(record, body.remaining());
        if (size > segmentSize) {
            throw new IllegalArgumentException("record of " + size + " bytes exceeds segment size " + segmentSize);
        }
        boolean message = record.type().carriesMessage();
        if (message) {
            String refusal = messageRefusal();
            if (refusal != null) {
                throw new StoreFullException(refusal);
            }
        }
        MappedFile segment = segmentForAppend(size, message);
        long offset = writePosition;
        if (scratch.capacity() < size) {
            scratch = ByteBuffer.allocateDirect(Integer.highestOneBit(size - 1) << 1);
        }
        MessageRecordDescriptor.encode(scratch, 0, record, body, offset, storeTimestamp);
        segment.write(scratch.slice(0, size), (int) (offset - segment.start()));
        writePosition = offset + size;
        return new AppendResult(offset, size, record.type() == RecordType.NORMAL ? record.queueOffset() : -1);
    }

    /** The segment the next record of {@code size} bytes goes into, padding or creating as needed. */
    private MappedFile segmentForAppend(int size, boolean message) {
        long position = writePosition;
        Map.Entry<Long, MappedFile> last = segments.lastEntry();
        if (last != null && position < last.getValue().end()) {
            MappedFile segment = last.getValue();
            int remaining = (int) (segment.end() - position);
            if (size == remaining || size <= remaining - MessageRecordDescriptor.BLANK_LENGTH) {
                prepareNextWhenHalfFull(segment, position);
                return segment;
            }
            MappedFile created = createSegment(segment.end(), message);
            ByteBuffer blank = ByteBuffer.allocate(MessageRecordDescriptor.BLANK_LENGTH);
            MessageRecordDescriptor.encodeBlank(blank, 0, remaining);
            segment.write(blank, (int) (position - segment.start()));
            return installed(created);
        }
        return installed(createSegment(position, message));
    }

    private MappedFile installed(MappedFile created) {
        segments.put(created.start(), created);
        roomKnownUntil = 0;
        updateHotFrom();
        LOG.info("CommitLog segment {} created{}", created,
                reserveSegment == created.start() ? " in the reserve kept for control records" : "");
        writePosition = created.start();
        return created;
    }

    /**
     * Why a message record would be refused now, or null: the segment after the active one is
     * not prepared and does not fit with {@code minFreeSpace} left, the active segment lies in
     * the reserve and the disk has not got {@code minFreeSpace} back, or the last message
     * rollover failed and a segment plus that margin does not fit yet.
     */
    String messageRefusal() {
        String nextSegment = nextSegmentRefusal();
        if (nextSegment != null) {
            return nextSegment;
        }
        if (reserveSegment < 0 && !messageRolloverFailed) {
            return null;
        }
        long usable = usableSpace();
        if (reserveSegment >= 0) {
            if (usable < minFreeSpace) {
                return "disk nearly full: " + usable + " bytes usable, " + minFreeSpace
                        + " must stay free for new messages; the rest is kept for acknowledgements";
            }
            reserveSegment = -1;
        }
        if (messageRolloverFailed) {
            if (usable - segmentSize < minFreeSpace) {
                return "disk full: no room for a CommitLog segment of " + segmentSize + " bytes with "
                        + minFreeSpace + " left free (" + usable + " usable)";
            }
            messageRolloverFailed = false;
        }
        return null;
    }

    /**
     * Why the room kept for the next segment refuses a message, or null. A check that finds room
     * to spare holds for the next appends up to half the spare bytes and an eighth of a segment,
     * so the disk is asked a few times per segment, not per message.
     */
    private String nextSegmentRefusal() {
        Map.Entry<Long, MappedFile> last = segments.lastEntry();
        if (last == null || writePosition < roomKnownUntil || nextFile.ready(last.getValue().end())) {
            return null;
        }
        long usable = usableSpace();
        long spare = usable - segmentSize - minFreeSpace;
        if (spare < 0) {
            return "disk nearly full: " + usable + " bytes usable, no room for the next CommitLog segment of "
                    + segmentSize + " bytes with " + minFreeSpace
                    + " left free; the rest is kept for acknowledgements";
        }
        roomKnownUntil = writePosition + Math.min(spare / 2, segmentSize / 8);
        return null;
    }

    private long usableSpace() {
        try {
            return Files.getFileStore(directory).getUsableSpace();
        } catch (IOException e) {
            return 0;
        }
    }

    /** Moves {@link #hotFrom} to the segment before the active one, never below {@link #verifiedFrom}. */
    private void updateHotFrom() {
        Long last = segments.isEmpty() ? null : segments.lastKey();
        Long previous = last == null ? null : segments.lowerKey(last);
        hotFrom = Math.max(verifiedFrom, previous == null ? Long.MIN_VALUE : previous);
    }

    private void prepareNextWhenHalfFull(MappedFile segment, long position) {
        if (!nextFile.pending() && position - segment.start() >= segmentSize / 2) {
            nextFile.prepare(segment.end(), segmentSize, minFreeSpace);
            roomKnownUntil = 0;
        }
    }

    /**
     * The prepared segment if it is the one for {@code start}, else one created now: leaving
     * {@code minFreeSpace} usable, or for a control record at least the reserve.
     */
    private MappedFile createSegment(long start, boolean message) {
        try {
            MappedFile created = createSegment(start);
            messageRolloverFailed = false;
            reserveSegment = -1;
            return created;
        } catch (StoreFullException e) {
            if (message) {
                messageRolloverFailed = true;
                throw e;
            }
            MappedFile created = MappedFile.create(directory, start, segmentSize, minFreeSpace / 4);
            reserveSegment = start;
            return created;
        }
    }

    private MappedFile createSegment(long start) {
        MappedFile prepared = nextFile.take(start);
        return prepared != null ? prepared : MappedFile.create(directory, start, segmentSize, minFreeSpace);
    }

    /**
     * The record at {@code offset}, its checksum verified when it is cold (see the class comment).
     *
     * @throws RecordReadException if no intact, published record starts there
     */
    MessageRecordView read(long offset) {
        long end = writePosition;
        if (offset >= end) {
            throw new RecordReadException(Reason.PAST_END, offset, "log ends at " + end);
        }
        Map.Entry<Long, MappedFile> entry = segments.floorEntry(offset);
        if (entry == null || offset < minOffset() || offset >= entry.getValue().end()) {
            throw new RecordReadException(Reason.BELOW_RETAINED, offset, "oldest retained offset " + minOffset());
        }
        MappedFile segment = entry.getValue();
        int index = (int) (offset - segment.start());
        int available = (int) Math.min(segment.size() - index, end - offset);
        RecordStatus status = MessageRecordDescriptor.check(segment.buffer(), index, available, offset < hotFrom);
        switch (status) {
            case VALID -> {
                MessageRecordView view = MessageRecordView.wrap(segment.buffer().slice(index, available));
                if (view.physicalOffset() != offset) {
                    throw new RecordReadException(Reason.NOT_A_RECORD, offset,
                            "record there claims offset " + view.physicalOffset());
                }
                return view;
            }
            case BAD_CHECKSUM, BAD_LAYOUT -> throw new RecordReadException(Reason.CORRUPT, offset, status.name());
            default -> throw new RecordReadException(Reason.NOT_A_RECORD, offset, status.name());
        }
    }

    /**
     * The published bytes from {@code offset}: whole records of one segment, at most
     * {@code maxBytes} of them unless the first record alone is longer, or the padding that ends
     * a segment; empty at the write position. A read-only view of the mapped file, for a replica
     * to write at the same offset.
     *
     * @throws RecordReadException if {@code offset} is past the end, below the oldest retained
     *                             segment, or not where a record starts
     */
    ByteBuffer readRaw(long offset, int maxBytes) {
        long end = writePosition;
        Map.Entry<Long, MappedFile> entry = segments.floorEntry(offset);
        if (entry != null && offset == entry.getValue().end() && offset < end) {
            entry = segments.higherEntry(entry.getKey());
        }
        if (offset > end) {
            throw new RecordReadException(Reason.PAST_END, offset, "log ends at " + end);
        }
        if (offset == end) {
            return ByteBuffer.allocate(0);
        }
        if (entry == null || offset < minOffset()) {
            throw new RecordReadException(Reason.BELOW_RETAINED, offset, "oldest retained offset " + minOffset());
        }
        MappedFile segment = entry.getValue();
        int start = (int) (offset - segment.start());
        int limit = (int) Math.min(segment.size(), end - segment.start());
        int index = start;
        while (index < limit && (index == start || index - start < maxBytes)) {
            RecordStatus status = MessageRecordDescriptor.check(segment.buffer(), index, limit - index);
            if (status == RecordStatus.BLANK) {
                index = segment.size();
                break;
            }
            if (status != RecordStatus.VALID) {
                throw new RecordReadException(Reason.NOT_A_RECORD, segment.start() + index, status.name());
            }
            int size = segment.buffer().getInt(index + MessageRecordDescriptor.TOTAL_SIZE_OFFSET);
            if (index != start && index - start + size > maxBytes) {
                break;
            }
            index += size;
        }
        return segment.buffer().slice(start, index - start).asReadOnlyBuffer();
    }

    /**
     * Writes {@code bytes}, read from another log by {@link #readRaw}, at {@code offset}, the
     * write position; for one thread at a time, as {@link #append}. Each record must be intact
     * and claim the offset it lands at, and padding must run to its segment's end, so the log
     * holds the same bytes at the same offsets as the one they came from.
     *
     * @return the new write position
     * @throws StoreException if {@code offset} is not the write position or the bytes are not
     *                        such records; nothing was written
     */
    long appendRaw(long offset, ByteBuffer bytes) {
        if (offset != writePosition) {
            throw new StoreException("replicated bytes at " + offset + " but the log ends at " + writePosition);
        }
        int length = bytes.remaining();
        if (length == 0) {
            return offset;
        }
        Map.Entry<Long, MappedFile> last = segments.lastEntry();
        MappedFile segment = last != null && offset < last.getValue().end() ? last.getValue()
                : installed(createSegment(offset, false));
        int index = (int) (offset - segment.start());
        if (length > segment.size() - index) {
            throw new StoreException(length + " replicated bytes at " + offset + " overrun segment " + segment);
        }
        int at = 0;
        while (at < length) {
            RecordStatus status = MessageRecordDescriptor.check(bytes, bytes.position() + at, length - at);
            if (status == RecordStatus.BLANK && index + length == segment.size()) {
                break;
            }
            int size = bytes.getInt(bytes.position() + at + MessageRecordDescriptor.TOTAL_SIZE_OFFSET);
            if (status != RecordStatus.VALID || bytes.getLong(bytes.position() + at
                    + MessageRecordDescriptor.PHYSICAL_OFFSET_OFFSET) != offset + at) {
                throw new StoreException("replicated bytes at " + (offset + at) + " are not a record written there ("
                        + status + ")");
            }
            at += size;
        }
        segment.write(bytes.duplicate(), index);
        writePosition = offset + length;
        prepareNextWhenHalfFull(segment, writePosition);
        return writePosition;
    }

    /**
     * Where the intact log ends, scanning from {@code from}, a record boundary known to be good,
     * as {@link #recover} would find it, without changing anything; for a log no store has open.
     */
    long intactEnd(long from) {
        if (segments.isEmpty()) {
            return from;
        }
        long position = Math.min(Math.max(from, minOffset()), segments.lastEntry().getValue().end());
        while (true) {
            MappedFile segment = segments.floorEntry(position).getValue();
            int index = (int) (position - segment.start());
            RecordStatus status = position >= segment.end() ? RecordStatus.EMPTY
                    : MessageRecordDescriptor.check(segment.buffer(), index, segment.size() - index);
            if (status == RecordStatus.VALID && MessageRecordView.wrap(segment.buffer().slice(index,
                    segment.size() - index)).physicalOffset() == position) {
                position += segment.buffer().getInt(index + MessageRecordDescriptor.TOTAL_SIZE_OFFSET);
            } else if ((status == RecordStatus.BLANK || position >= segment.end())
                    && segments.higherKey(segment.start()) != null) {
                position = segment.end();
            } else {
                return status == RecordStatus.BLANK ? segment.end() : position;
            }
        }
    }

    /**
     * Cuts the log at {@code offset}, a record boundary: zeroes from there to its segment's end
     * and deletes later segments. For a log no store has open (truncation before a
     * replica fetches from a new master); {@link #recover} finds the new end.
     */
    void cutAt(long offset) {
        for (MappedFile later : segments.tailMap(offset, false).values()) {
            segments.remove(later.start());
            later.delete();
        }
        Map.Entry<Long, MappedFile> entry = segments.floorEntry(offset);
        if (entry != null && offset < entry.getValue().end()) {
            entry.getValue().zeroFrom((int) (offset - entry.getKey()));
        }
    }

    /**
     * Whether an intact PREPARED record of {@code size} bytes starts at {@code offset}, whatever
     * the write position: for recovery, which checks ConsumeQueue entries before the scan.
     */
    boolean isHalfRecord(long offset, int size) {
        Map.Entry<Long, MappedFile> entry = segments.floorEntry(offset);
        if (entry == null || offset + size > entry.getValue().end()) {
            return false;
        }
        MappedFile segment = entry.getValue();
        int index = (int) (offset - segment.start());
        if (MessageRecordDescriptor.check(segment.buffer(), index, size) != RecordStatus.VALID) {
            return false;
        }
        MessageRecordView view = MessageRecordView.wrap(segment.buffer().slice(index, size));
        return view.totalSize() == size && view.physicalOffset() == offset && view.type() == RecordType.PREPARED;
    }

    /**
     * {@code offset} itself if a record may start there, else the start of the next segment:
     * when {@code offset} is a segment's end or its padding.
     */
    long skipPadding(long offset) {
        Map.Entry<Long, MappedFile> entry = segments.floorEntry(offset);
        if (entry == null) {
            return offset;
        }
        MappedFile segment = entry.getValue();
        if (offset >= segment.end()) {
            return offset;
        }
        int index = (int) (offset - segment.start());
        if (segment.size() - index >= MessageRecordDescriptor.BLANK_LENGTH
                && segment.buffer().getInt(index + MessageRecordDescriptor.MAGIC_OFFSET)
                == MessageRecordDescriptor.BLANK_MAGIC) {
            return segment.end();
        }
        return offset;
    }

    /** Forces everything written so far; returns the new flushed position. */
    synchronized long flush() {
        long target = writePosition;
        long from = flushedPosition;
        if (target <= from) {
            return from;
        }
        for (MappedFile segment : segments.headMap(target, false).values()) {
            if (segment.end() > from) {
                segment.forceWritten();
                int first = (int) (Math.max(from, segment.start()) - segment.start());
                int end = (int) (Math.min(target, segment.end()) - segment.start());
                recorder.forced(segment.path(), first,
                        segment.buffer().duplicate().limit(end).position(first));
            }
        }
        flushedPosition = target;
        forces++;
        return target;
    }

    /**
     * Scans from {@code from}, a record boundary known to be good, giving each valid record to
     * {@code sink}; truncates at the first bad one and makes the end the write position. While
     * {@code sink} has a record, {@link #read} serves every record before it (those below
     * {@code from} included), so a record may name earlier ones. For the opening thread only,
     * before any append.
     */
    Scan recover(long from, Consumer<MessageRecordView> sink) {
        if (segments.isEmpty()) {
            verifiedFrom = from;
            updateHotFrom();
            writePosition = flushedPosition = from;
            // an empty log fills its first segment while the store opens rather than under its
            // first append (zero-filling 1 GiB on a busy disk takes seconds, longer than a client waits)
            nextFile.prepare(from, segmentSize, minFreeSpace);
            nextFile.await();
            return new Scan(0, from, 0);
        }
        long position = Math.min(Math.max(from, minOffset()), segments.lastEntry().getValue().end());
        verifiedFrom = position;
        long records = 0;
        long truncated = 0;
        while (true) {
            Map.Entry<Long, MappedFile> entry = segments.floorEntry(position);
            MappedFile segment = entry.getValue();
            if (position >= segment.end()) {
                if (segments.higherKey(segment.start()) == null) {
                    break;
                }
                position = segment.end();
                continue;
            }
            int index = (int) (position - segment.start());
            RecordStatus status = MessageRecordDescriptor.check(segment.buffer(), index, segment.size() - index);
            if (status == RecordStatus.BLANK) {
                position = segment.end();
                continue;
            }
            if (status == RecordStatus.VALID) {
                MessageRecordView view = MessageRecordView.wrap(segment.buffer().slice(index, segment.size() - index));
                if (view.physicalOffset() == position) {
                    writePosition = position; // the sink may read back the records before this one
                    sink.accept(view);
                    records++;
                    position += view.totalSize();
                    continue;
                }
                status = RecordStatus.BAD_LAYOUT;
            }
            if (status != RecordStatus.EMPTY) {
                truncated = segment.end() - position;
                LOG.warn("CommitLog tail at {} is {}: truncating {} bytes of {}", position, status, truncated, segment);
                segment.zeroFrom(index);
            }
            break;
        }
        for (MappedFile later : segments.tailMap(position, false).values()) {
            LOG.warn("CommitLog segment {} lies past the recovered end {}: deleting it", later, position);
            segments.remove(later.start());
            later.delete();
            truncated += later.size();
        }
        writePosition = position;
        updateHotFrom();
        flushedPosition = from;
        flush();
        MappedFile last = segments.lastEntry().getValue();
        if (position < last.end()) {
            prepareNextWhenHalfFull(last, position);
        } else {
            nextFile.prepare(position, segmentSize, minFreeSpace);
        }
        return new Scan(records, position, truncated);
    }

    /**
     * Deletes whole segments that end at or below {@code offset}, never the last one.
     *
     * @return how many were deleted
     */
    int deleteSegmentsBelow(long offset) {
        int deleted = 0;
        for (MappedFile segment : segments.values()) {
            if (segment.end() > offset || segment == segments.lastEntry().getValue()) {
                break;
            }
            segments.remove(segment.start());
            segment.delete();
            LOG.info("CommitLog segment {} deleted by retention below {}", segment, offset);
            deleted++;
        }
        return deleted;
    }

    /** Forces what is left and closes the channels; the mappings are released by the garbage collector. */
    void close() {
        flush();
        nextFile.discard();
        allocator.shutdown();
        segments.values().forEach(MappedFile::close);
    }
}
