package io.ramjet.storage;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.MessageRecordDescriptor;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The message store: one CommitLog, the ConsumeQueues a dispatcher builds from it, group-commit
 * and periodic flush, a checkpoint and crash recovery, retention.
 *
 * <p>On disk, under the configured directory: {@code commitlog/} (segments),
 * {@code consumequeue/<destination>/<queue id>/} (entry files), {@code checkpoint}, {@code lock}
 * (held while open, so one process at a time) and {@code running}, the clean-shutdown marker:
 * created on open and deleted by a clean {@link #close()}. Threading: every public method may be
 * called from any thread; appends are serialized by one lock, reads take none. Threads of its
 * own: flush, dispatch, checkpoint, and one per {@link #appendLane}. After a crash: {@link #open} runs {@link Recovery}, so every
 * append whose future completed under {@link FlushPolicy#SYNC_GROUP_COMMIT} is found intact.
 *
 * <p>A full disk: records that carry a new message (NORMAL, PREPARED, TIMER) need
 * {@code minFreeSpace} usable after any file they cause to be created; control records and
 * ConsumeQueue files only a quarter of it, so consumers can drain a store that refuses new
 * messages. While the dispatcher is stalled on a record it could not index
 * ({@link #dispatchStalled()}), message records are refused too.
 */
public final class MessageStore implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MessageStore.class);

    private final StoreConfig config;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final Path runningMarker;
    private final CommitLog log;
    private final ConsumeQueueTable queues;
    private final CheckpointFile checkpointFile;
    private final DispatchListener listener;
    private final RecoveryReport recoveryReport;
    private final DurabilityPipeline pipeline;
    private final ScheduledExecutorService checkpointer;
    private final ReentrantLock appendLock = new ReentrantLock();
    private final Map<QueueKey, long[]> nextQueueOffsets = new HashMap<>();
    private volatile long checkpointOffset;
    private volatile boolean closed;

    private MessageStore(StoreConfig config, DispatchListener listener, ReplicationGate replicationGate) {
        this.config = config;
        this.listener = listener;
        Path directory = config.directory();
        try {
            OwnerOnly.createDirectories(directory);
            lockChannel = OwnerOnly.open(directory.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            lock = lockChannel.tryLock();
        } catch (IOException | OverlappingFileLockException e) {
            throw new StoreException("cannot lock " + directory, e);
        }
        if (lock == null) {
            throw new StoreException(directory + " is in use by another process");
        }
        runningMarker = directory.resolve("running");
        boolean clean = !Files.exists(runningMarker);
        log = new CommitLog(directory.resolve("commitlog"), config.segmentSize(), config.minFreeSpace(),
                config.forceRecorder());
        queues = new ConsumeQueueTable(directory.resolve("consumequeue"), config.consumeQueueEntriesPerFile(),
                config.minFreeSpace() / 4, config.forceRecorder());
        checkpointFile = new CheckpointFile(directory, config.forceRecorder());
        listener.readsFrom(log::read);
        recoveryReport = Recovery.run(clean, checkpointFile, log, queues, listener);
        checkpointOffset = recoveryReport.checkpointOffset();
        try {
            OwnerOnly.write(runningMarker, new byte[0]);
            // durable before anything is appended: a power loss that took the marker back would
            // make the next open look clean and skip what a crash requires (delivered-mark replay)
            DurableRename.forceDirectory(directory, config.forceRecorder());
        } catch (IOException e) {
            throw new StoreException("cannot create " + runningMarker, e);
        }
        pipeline = new DurabilityPipeline(log, listener, queues, replicationGate, config.flushPolicy(),
                config.flushInterval());
        checkpointer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ramjet-checkpoint");
            t.setDaemon(true);
            return t;
        });
        pipeline.start();
        long period = config.checkpointInterval().toMillis();
        checkpointer.scheduleWithFixedDelay(this::periodicCheckpoint, period, period, TimeUnit.MILLISECONDS);
    }

    /** Opens (creating or recovering) the store, dispatching NORMAL records to their queues. */
    public static MessageStore open(StoreConfig config) {
        return open(config, DispatchListener.normalMessages());
    }

    /** Opens the store with {@code listener} in charge of every record's dispatch. */
    public static MessageStore open(StoreConfig config, DispatchListener listener) {
        return new MessageStore(config, listener, ReplicationGate.NONE);
    }

    /**
     * Opens the store with {@code listener} in charge of every record's dispatch; appends made
     * with {@code waitForFlush} complete once {@code replicationGate} says their bytes are
     * replicated, and no record is dispatched before it is.
     */
    public static MessageStore open(StoreConfig config, DispatchListener listener, ReplicationGate replicationGate) {
        return new MessageStore(config, listener, replicationGate);
    }

    public StoreConfig config() {
        return config;
    }

    /** What opening this store found and repaired. */
    public RecoveryReport recoveryReport() {
        return recoveryReport;
    }

    /**
     * Appends {@code record}; a NORMAL record gets the next offset of its queue. The future
     * completes when the record is durable if {@code waitForFlush} and the policy is
     * {@link FlushPolicy#SYNC_GROUP_COMMIT}, else at once; it fails if the flush fails. Made inside
     * a lane's batch, the record is forced and dispatched at the batch's end ({@link AppendLane}):
     * never wait for the future there.
     *
     * @throws StoreFullException if the disk has no room for a new segment; nothing was appended
     * @throws IllegalArgumentException if the record exceeds the maximum record size
     */
    public CompletableFuture<AppendResult> append(MessageRecord record, boolean waitForFlush) {
        return appendWithBody(record, ByteBuffer.wrap(record.body()), waitForFlush);
    }

    /**
     * As {@link #append(MessageRecord, boolean)} for a record whose body is held in a buffer, not in
     * the record (whose own body must be empty): the remaining bytes of {@code body} are the
     * record's body. They are copied into the log before this returns, leaving {@code body}'s
     * position where it was, so the caller may release the memory behind {@code body} then.
     *
     * @throws StoreFullException if the disk has no room for a new segment; nothing was appended
     * @throws IllegalArgumentException if the record has a body of its own or exceeds the maximum record size
     */
    public CompletableFuture<AppendResult> append(MessageRecord record, ByteBuffer body, boolean waitForFlush) {
        if (record.body().length != 0) {
            throw new IllegalArgumentException("a record with a body of its own and a body buffer");
        }
        return appendWithBody(record, body, waitForFlush);
    }

    private CompletableFuture<AppendResult> appendWithBody(MessageRecord record, ByteBuffer body,
                                                           boolean waitForFlush) {
        AppendResult result;
        appendLock.lock();
        try {
            if (closed) {
                throw new StoreException("store closed");
            }
            if (record.type().carriesMessage()) {
                checkRoomForMessages();
            }
            MessageRecord stamped = record;
            long[] next = null;
            if (record.type() == RecordType.NORMAL) {
                next = nextQueueOffsets.computeIfAbsent(new QueueKey(record.destination(), record.queueId()),
                        this::recoveredNextOffset);
                stamped = record.withQueueOffset(next[0]);
            }
            checkSize(stamped, body.remaining());
            result = log.append(stamped, body, System.currentTimeMillis());
            if (next != null) {
                next[0]++;
            }
        } finally {
            appendLock.unlock();
        }
        return pipeline.appended(result, waitForFlush);
    }

    /**
     * Appends a record that reserves one ConsumeQueue offset per slot, atomically with its
     * append: under the append lock each slot gets its queue's next offset (slots of one queue
     * get consecutive ones, in list order), {@code build} makes the record from those offsets,
     * and the record is appended before any other record can take an offset. The store puts no
     * entry there itself: the {@link DispatchListener} does when it sees the record (and again
     * during recovery), so the record must carry what the entries need. If {@code build} or the
     * append fails, the offsets are given back. Completion as in {@link #append(MessageRecord, boolean)}.
     *
     * @param slots the queue positions to reserve, possibly several in one queue
     * @param build makes the record; its argument holds the reserved offsets in the order of {@code slots}
     * @throws StoreFullException if the disk has no room for a new segment; nothing was appended
     */
    public CompletableFuture<AppendResult> append(List<QueueSlot> slots, Function<long[], MessageRecord> build,
                                                  boolean waitForFlush) {
        return pipeline.appended(appendReserving(slots, single(build)), waitForFlush);
    }

    /**
     * As {@link #append(List, Function, boolean)} for a decision too large for one record: under
     * one hold of the append lock, reserves the slots' offsets and appends every record
     * {@code chain} writes, back to back, so no other record lies between them or takes an
     * offset meanwhile (see {@link RecordChain} for why that makes the chain atomic). Appends
     * wait for it: a chain of many megabytes holds every sender for its writing. If a record of
     * the chain fails, the records already written stay in the log, undecided, and the offsets
     * are given back. Completion as in {@link #append(MessageRecord, boolean)}, for the whole chain.
     *
     * @return the last record's result; its end is the chain's end
     * @throws StoreFullException if the disk has no room for a new segment; the chain is undecided
     * @throws IllegalArgumentException if a record exceeds the maximum record size, is NORMAL, or
     *         the chain writes none
     */
    public CompletableFuture<AppendResult> appendChain(List<QueueSlot> slots, RecordChain chain, boolean waitForFlush) {
        return pipeline.appended(appendReserving(slots, chain), waitForFlush);
    }

    /**
     * A lane for work that appends and waits for durability, from event loops: see
     * {@link AppendLane} and {@link DurabilityPipeline}, which decides where its work runs and
     * who forces for it. Close it before this store.
     *
     * @param threadName the name of the lane's own thread
     * @param mayBlock   whether work run now might block (a disk guard holding it): then it runs
     *                   on the lane's thread, never on an event loop; must not block itself
     */
    public AppendLane appendLane(String threadName, BooleanSupplier mayBlock) {
        return new AppendLane(pipeline, threadName, mayBlock);
    }

    private static RecordChain single(Function<long[], MessageRecord> build) {
        return (offsets, out) -> out.append(build.apply(offsets));
    }

    private AppendResult appendReserving(List<QueueSlot> slots, RecordChain chain) {
        AppendResult[] last = new AppendResult[1];
        appendLock.lock();
        try {
            if (closed) {
                throw new StoreException("store closed");
            }
            long[] offsets = new long[slots.size()];
            Map<QueueKey, long[]> reserved = new HashMap<>();
            for (int i = 0; i < offsets.length; i++) {
                QueueSlot slot = slots.get(i);
                QueueKey key = new QueueKey(slot.destination(), slot.queueId());
                long[] next = reserved.computeIfAbsent(key, k -> new long[] {
                        nextQueueOffsets.computeIfAbsent(k, this::recoveredNextOffset)[0]});
                offsets[i] = next[0]++;
            }
            chain.write(offsets.clone(), record -> {
                if (record.type() == RecordType.NORMAL) {
                    throw new IllegalArgumentException("a NORMAL record takes its own queue offset");
                }
                checkSize(record);
                if (record.type().carriesMessage()) {
                    checkRoomForMessages();
                }
                last[0] = log.append(record, System.currentTimeMillis());
                return last[0].physicalOffset();
            });
            if (last[0] == null) {
                throw new IllegalArgumentException("a chain of no record");
            }
            reserved.forEach((key, next) -> nextQueueOffsets.get(key)[0] = next[0]);
        } finally {
            appendLock.unlock();
        }
        return last[0];
    }

    /**
     * Completes with {@code result} once the log up to its end is as durable as an append made
     * with {@code waitForFlush} would be (forced under SYNC_GROUP_COMMIT, and held by the
     * synchronous replicas): for an answer that rests on a record appended earlier, such as a
     * resent message found already stored. Inside a lane's batch, the force is the batch's end.
     */
    public CompletableFuture<AppendResult> durable(AppendResult result, boolean waitForFlush) {
        return pipeline.durable(result, waitForFlush);
    }

    /**
     * Writes bytes another store's {@link #readReplicable} gave, at {@code offset}, which must
     * be this log's end: the same bytes at the same offsets, dispatched as if appended here. For
     * a replica, which appends nothing of its own.
     *
     * @return completes with the new end once everything below it is forced
     * @throws StoreException if {@code offset} is not the end of this log, or the bytes are not
     *                        whole records claiming the offsets they land at; nothing was written
     */
    public CompletableFuture<Long> appendReplicated(long offset, ByteBuffer bytes) {
        long end;
        appendLock.lock();
        try {
            if (closed) {
                throw new StoreException("store closed");
            }
            end = log.appendRaw(offset, bytes);
            nextQueueOffsets.clear();
        } finally {
            appendLock.unlock();
        }
        return pipeline.appendedReplicated(end);
    }

    /**
     * The CommitLog's bytes from {@code offset} as they are on disk, for a replica: whole
     * records of one segment, about {@code maxBytes} of them (at least one), or a segment's end
     * padding; empty at the end of the log. A read-only view, valid while the store is open.
     *
     * @throws RecordReadException if no record starts at {@code offset}, or it is past the end
     *                             or below the oldest retained segment
     */
    public ByteBuffer readReplicable(long offset, int maxBytes) {
        return log.readRaw(offset, maxBytes);
    }

    /**
     * Refuses what a message record would be refused for now: a dispatcher stalled on a record
     * it could not index, or a disk without room for new messages (see the class comment).
     * Control records may still be appended. Cheap: the disk is asked only once it was short.
     *
     * @throws StoreFullException saying why
     */
    public void checkRoomForMessages() {
        String stall = pipeline.dispatchStallReason();
        if (stall != null) {
            throw new StoreFullException("store cannot index new records (" + stall + "): new messages refused");
        }
        String refusal = log.messageRefusal();
        if (refusal != null) {
            throw new StoreFullException(refusal);
        }
    }

    /**
     * Whether the dispatcher is stuck on a record it could not put in its ConsumeQueue (a full
     * disk): it retries that record, so nothing after it is indexed until room comes back.
     */
    public boolean dispatchStalled() {
        return pipeline.dispatchStallReason() != null;
    }

    /**
     * Deletes the ConsumeQueues of {@code destination} (a storage name), files and directory,
     * once the dispatcher has indexed every record appended before this call; records appended
     * later start new queues. Not durable by itself: after a crash, records between the
     * checkpoint and this call are indexed again, so a caller that needs the deletion to survive
     * either logs a record whose dispatch calls {@link ConsumeQueueWriter#deleteQueues}, or deletes
     * again after the store opens (as the broker does for destinations it no longer has).
     *
     * @return completes once the files are gone
     */
    public CompletableFuture<Void> deleteQueues(String destination) {
        long before;
        appendLock.lock();
        try {
            if (closed) {
                throw new StoreException("store closed");
            }
            before = log.writePosition();
        } finally {
            appendLock.unlock();
        }
        return pipeline.runAt(before, () -> queues.deleteQueues(destination));
    }

    /** The storage names of the destinations that have ConsumeQueues. */
    public Set<String> queueDestinations() {
        return queues.destinations();
    }

    private long[] recoveredNextOffset(QueueKey key) {
        ConsumeQueue queue = queues.find(key.destination(), key.queueId());
        return new long[] {queue == null ? 0 : queue.nextOffset()};
    }

    private void checkSize(MessageRecord record) {
        checkSize(record, record.body().length);
    }

    private void checkSize(MessageRecord record, int bodyLength) {
        int size = MessageRecordDescriptor.recordLength(record, bodyLength);
        if (size > config.maxRecordSize()) {
            throw new IllegalArgumentException("record of " + size + " bytes exceeds " + config.maxRecordSize());
        }
    }

    /**
     * The record at {@code physicalOffset}, checksum verified; a view of the mapped file.
     *
     * @throws RecordReadException if no intact record starts there
     */
    public MessageRecordView read(long physicalOffset) {
        return log.read(physicalOffset);
    }

    /**
     * Up to {@code max} entries of a queue from logical offset {@code from}: empty at the end.
     *
     * @throws RecordReadException if {@code from} is below the oldest retained entry
     */
    public List<ConsumeQueueEntry> readQueue(String destination, int queueId, long from, int max) {
        ConsumeQueue queue = queues.find(destination, queueId);
        if (queue == null) {
            return List.of();
        }
        return queue.read(from, max);
    }

    /**
     * Fills {@code slice} with up to its capacity of a queue's entries from logical offset
     * {@code from}: empty at the end. For scans that test entries in bulk.
     *
     * @throws RecordReadException if {@code from} is below the oldest retained entry
     */
    public void readQueue(String destination, int queueId, long from, ConsumeQueueSlice slice) {
        ConsumeQueue queue = queues.find(destination, queueId);
        if (queue == null) {
            slice.clear(from);
            return;
        }
        queue.read(from, slice);
    }

    /** The oldest logical offset still held by a queue. */
    public long minQueueOffset(String destination, int queueId) {
        ConsumeQueue queue = queues.find(destination, queueId);
        return queue == null ? 0 : queue.minOffset();
    }

    /** One past the newest dispatched entry of a queue. */
    public long maxQueueOffset(String destination, int queueId) {
        ConsumeQueue queue = queues.find(destination, queueId);
        return queue == null ? 0 : queue.nextOffset();
    }

    /** The oldest retained CommitLog offset. */
    public long minPhysicalOffset() {
        return log.minOffset();
    }

    /** The CommitLog write position: where the next record goes. */
    public long maxPhysicalOffset() {
        return log.writePosition();
    }

    /** Everything below this CommitLog offset is forced to disk. */
    public long flushedOffset() {
        return log.flushedPosition();
    }

    /** Everything below this CommitLog offset has been given to the dispatch listener. */
    public long dispatchedOffset() {
        return pipeline.dispatchedOffset();
    }

    /**
     * Completes once every record below {@code physicalOffset} has been given to the dispatch
     * listener (a record it failed on included), on the thread of that pass (the dispatcher's, or
     * a lane's at the end of its batch): keep callbacks short.
     */
    public CompletableFuture<Void> dispatchedTo(long physicalOffset) {
        return pipeline.dispatchedTo(physicalOffset);
    }

    /**
     * As {@link #dispatchedTo}, but fails, as a durable append does, if the synchronous replicas
     * do not hold every record below {@code physicalOffset} within the replication timeout:
     * for a waiter that must not wait without a deadline while the in-sync set is below its
     * minimum (a transaction's end, which waits for the records written before it).
     */
    public CompletableFuture<Void> replicatedAndDispatchedTo(long physicalOffset) {
        return pipeline.replicatedAndDispatchedTo(physicalOffset);
    }

    /**
     * Why a write appended now could not be answered (the in-sync set below its minimum, under
     * synchronous replication), or empty when it could.
     */
    public Optional<String> replicationShortfall() {
        return pipeline.replicationShortfall();
    }

    /**
     * Completes once every record below {@code physicalOffset} is written to the CommitLog (not
     * necessarily forced or dispatched), on the appending thread: keep callbacks short. For a
     * replica's fetch that waits at the log's end for new bytes.
     */
    public CompletableFuture<Void> writtenTo(long physicalOffset) {
        return pipeline.writtenTo(physicalOffset);
    }

    /** Completes once the CommitLog is forced at least up to {@code physicalOffset}, on the flush thread. */
    public CompletableFuture<Void> flushedTo(long physicalOffset) {
        return pipeline.flushedTo(physicalOffset);
    }

    /** The CommitLog's forces so far: count, time, appends completed (group-commit batch sizes). */
    public FlushStatistics flushStatistics() {
        return pipeline.flushStatistics();
    }

    /** Runs {@code hook} before every force of the CommitLog, on the forcing thread; for tests. */
    void beforeForce(Runnable hook) {
        pipeline.beforeForce(hook);
    }

    long forceCount() {
        return log.forceCount();
    }

    /** How many CommitLog segment files exist. */
    public int segmentCount() {
        return log.segmentCount();
    }

    /**
     * Forces the CommitLog and writes a checkpoint now: the next recovery starts no earlier than
     * what is both flushed and dispatched.
     *
     * @return the checkpoint's recovery offset
     */
    public synchronized long checkpoint() {
        return checkpointAt(Math.min(pipeline.dispatchedOffset(), log.flush()));
    }

    private long checkpointAt(long offset) {
        listener.beforeCheckpoint(offset);
        queues.flush();
        checkpointFile.write(offset);
        checkpointOffset = offset;
        return offset;
    }

    /**
     * The scheduled checkpoint, at what the flush thread has already forced: forcing the
     * CommitLog here would hold its lock against the group commit that persistent sends wait for.
     * Never behind the last checkpoint (an explicit one may have forced further than the flush
     * thread has): nothing new, nothing written.
     */
    private void periodicCheckpoint() {
        try {
            synchronized (this) {
                long offset = Math.min(pipeline.dispatchedOffset(), log.flushedPosition());
                if (offset > checkpointOffset) {
                    checkpointAt(offset);
                }
            }
        } catch (RuntimeException e) {
            LOG.error("checkpoint failed", e);
        }
    }

    /**
     * Deletes whole CommitLog segments below {@code minOffset}, and the queue files pointing only
     * into them; never the active segment, nor anything the last checkpoint or the dispatcher
     * still needs.
     *
     * @return how many CommitLog segments were deleted
     */
    public synchronized int deleteSegmentsBelow(long minOffset) {
        long limit = Math.min(minOffset, Math.min(checkpointOffset, pipeline.dispatchedOffset()));
        int deleted = log.deleteSegmentsBelow(limit);
        if (deleted > 0) {
            queues.deleteFilesBelow(log.minOffset());
        }
        return deleted;
    }

    /**
     * Stops appends, completes waiting appends after a last force, dispatches what is left,
     * writes a checkpoint at the end of the log and marks the shutdown clean.
     */
    @Override
    public void close() {
        if (!stopThreads()) {
            return;
        }
        checkpoint();
        try {
            Files.deleteIfExists(runningMarker);
        } catch (IOException e) {
            LOG.error("cannot delete {}: the next open will recover", runningMarker, e);
        }
        closeFiles();
    }

    /** Stops without a checkpoint or clean marker, as a crash would leave it; for tests. */
    void closeAbruptly() {
        if (stopThreads()) {
            closeFiles();
        }
    }

    private boolean stopThreads() {
        appendLock.lock();
        try {
            if (closed) {
                return false;
            }
            closed = true;
        } finally {
            appendLock.unlock();
        }
        checkpointer.shutdown();
        try {
            checkpointer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        pipeline.close();
        return true;
    }

    private void closeFiles() {
        log.close();
        queues.close();
        try {
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            LOG.warn("cannot release the store lock", e);
        }
    }
}
