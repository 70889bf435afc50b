package io.ramjet.storage;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The one owner of what happens to a record after it is appended to the CommitLog: force,
 * replicate, dispatch, answer, and which thread does each. Every other class (the store, its
 * {@link AppendLane}s, the broker's send and transaction processors) asks it; none chooses on its
 * own when to force or whether to dispatch.
 *
 * <h2>Stages and their threads</h2>
 * <ol>
 *   <li><b>Append</b>: the caller's thread, under the store's append lock ({@link MessageStore}).
 *       Then {@link #appended} takes the record in: on a thread outside a lane's batch it wakes the
 *       flush thread first when the append waits for a force, then the dispatcher; inside a batch
 *       (see <b>Lanes</b>) it wakes neither, since the batch's end forces and dispatches.</li>
 *   <li><b>Force</b> ({@link FlushService}): the flush thread as soon as an append outside a batch
 *       waits (group commit: one force covers every append written before it), or the dispatcher
 *       asks, else every flush interval; or a lane's thread at the end of its batch.</li>
 *   <li><b>Replicate</b> ({@link ReplicationGate}): under synchronous replication, the replication
 *       threads tell the gate how far the in-sync set holds the log.</li>
 *   <li><b>Dispatch</b> ({@link Dispatcher}): the dispatcher thread, or a lane's thread right after
 *       its batch's force, for at most {@link #PASS_HERE_LIMIT_BYTES} (more is left to the
 *       dispatcher thread). Records are given to the {@link DispatchListener} (and so, for a
 *       message, to consumers) in log order, each only once the gate holds it. <b>Visible only
 *       when durable:</b> a record that hands a durable message to consumers (a PERSISTENT message,
 *       a COMMIT; see {@link Dispatcher#waitsForForce}) is passed only once the CommitLog is forced
 *       past it, whatever the flush policy: a consumer never receives a persistent message that a
 *       power loss could erase. The dispatcher asks the flush thread for that force when no append
 *       waits for one, and the flush thread wakes it after each force, so many records share one
 *       force. Since the ConsumeQueues are written by dispatch, no entry of a durable message is
 *       ever ahead of the forced log.</li>
 *   <li><b>Answer</b>: the futures this class hands out complete on the thread that finished the
 *       last stage they wait for (flush, dispatch, a lane's or a replication thread): their
 *       callbacks must be short (write an answer, append one record), never block.</li>
 * </ol>
 *
 * <h2>Lanes: who forces when</h2>
 * An {@link AppendLane} runs work that appends (a broker's sends and counted commits) either on the
 * event loop that read it or on the lane's own thread, and opens a <i>batch</i> on that thread: an
 * append made on a thread whose batch is open waits for the batch's end, not for the flush thread.
 * The batch ends when the event loop has processed the reads at hand, or when the lane's thread
 * has no more work queued; then, once, the lane forces the CommitLog for the batch's appends and
 * dispatches what that force made visible ({@link #endBatch}). So one force serves every append of
 * a batch, with no thread hand-off on the path of a synchronous send. Appends made while the
 * batch ends (in the callbacks its force completes) are outside it and wake the flush thread.
 * Work inside a batch must never wait for its own appends' durability: they are forced after it.
 *
 * <h2>Event loops</h2>
 * The rules are enforced here, not left to callers:
 * <ul>
 *   <li>Work runs on an event loop only while the lane's owner says it cannot block (no disk guard
 *       holds sends) and {@link #forcesQuickly()}: the CommitLog's last force, on any thread, took
 *       under {@link #INLINE_FORCE_LIMIT_NANOS}. Otherwise it goes to the lane's thread, and so
 *       does all later work until the lane's thread has processed what was handed to it (one
 *       connection's work keeps its arrival order).</li>
 *   <li>At a batch's end on an event loop the force runs there only if {@link #forcesQuickly()}
 *       still holds; else the lane's thread forces for the batch (and takes the work that follows
 *       until it is done), or the flush thread once the lane is closed. A
 *       force can take no less time than the disk needs, so what this bounds is the next force
 *       after a quick one: one slow force moves every force off the event loops until a force on
 *       another thread is quick again.</li>
 *   <li>A force or dispatch pass already under way elsewhere is never waited for on an event loop
 *       (the flush thread forces again after it; the dispatcher thread passes what is left), and a
 *       pass there covers at most {@link #PASS_HERE_LIMIT_BYTES}.</li>
 * </ul>
 * A lane's own thread may force for as long as the disk takes.
 *
 * <h2>What a waiter is promised</h2>
 * <ul>
 *   <li>{@link #appended}{@code (result, true)} and {@link #durable}{@code (result, true)} complete
 *       only once the CommitLog is forced past the record (under
 *       {@link FlushPolicy#SYNC_GROUP_COMMIT}) and the gate holds it; they fail if the force fails
 *       or the store closes first.</li>
 *   <li>{@link #dispatchedTo} completes once every record below the offset has been given to the
 *       listener (a record the listener failed on included). {@link #replicatedAndDispatchedTo}
 *       as well, but fails as a durable append does if the gate does not hold the records within
 *       its timeout, where {@link #dispatchedTo} would wait for as long as the gate holds them
 *       back.</li>
 *   <li>{@link #flushedTo} completes once the CommitLog is forced up to the offset;
 *       {@link #writtenTo} once the bytes are written (not forced).</li>
 * </ul>
 *
 * <p>On disk: nothing of its own. After a crash: what was not forced may be lost; no durable
 * waiter was completed for it.
 */
final class DurabilityPipeline {

    /** A force at least this long keeps forces (and so sends) off the event loops until one is quicker again. */
    static final long INLINE_FORCE_LIMIT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * Records at most this far behind are dispatched by a lane after its force; more (a busy
     * store, where the dispatcher thread is awake and batches) is left to the dispatcher thread,
     * so that no event loop dispatches for long.
     */
    static final long PASS_HERE_LIMIT_BYTES = 64 * 1024;

    private final FlushPolicy policy;
    private final FlushService flushService;
    private final Dispatcher dispatcher;
    private final ReplicationGate gate;
    private final OffsetProgress written;
    /** Per thread: whether it has an open batch, whose end forces for its appends (see the class comment). */
    private final ThreadLocal<boolean[]> batch = ThreadLocal.withInitial(() -> new boolean[1]);

    DurabilityPipeline(CommitLog log, DispatchListener listener, ConsumeQueueTable queues, ReplicationGate gate,
                       FlushPolicy policy, Duration flushInterval) {
        this.policy = policy;
        this.gate = gate;
        this.flushService = new FlushService(log, flushInterval, this::wakeDispatcher);
        this.written = new OffsetProgress(log.writePosition());
        this.dispatcher = new Dispatcher(log, listener, queues, log.writePosition(), gate,
                flushService::requestForce);
        gate.onAdvance(dispatcher::wakeUp);
    }

    private void wakeDispatcher() {
        dispatcher.wakeUp();
    }

    void start() {
        flushService.start();
        dispatcher.start();
    }

    /**
     * Takes a record just appended into the pipeline: outside a batch, wakes the flush thread
     * first if the append waits for durability (the force takes longer than the dispatch, so it
     * starts first), then the dispatcher; inside one, neither (the batch's end forces and passes).
     *
     * @return completes as {@link #durable}
     */
    CompletableFuture<AppendResult> appended(AppendResult result, boolean waitForFlush) {
        CompletableFuture<AppendResult> durable = durable(result, waitForFlush);
        if (!inBatch()) {
            dispatcher.wakeUp();
        }
        written.reached(result.endOffset());
        return durable;
    }

    /** Takes replicated bytes just written up to {@code end}; completes once they are forced. */
    CompletableFuture<Long> appendedReplicated(long end) {
        dispatcher.wakeUp();
        written.reached(end);
        return flushService.flushedTo(end).thenApply(v -> end);
    }

    /**
     * Completes with {@code result} once the log up to its end is as durable as an append made
     * with {@code waitForFlush} would be: forced under SYNC_GROUP_COMMIT (by the flush thread, or
     * inside a batch by its end), and held by the gate.
     */
    CompletableFuture<AppendResult> durable(AppendResult result, boolean waitForFlush) {
        if (!waitForFlush) {
            return CompletableFuture.completedFuture(result);
        }
        CompletableFuture<Void> flushed;
        if (policy != FlushPolicy.SYNC_GROUP_COMMIT) {
            flushed = CompletableFuture.completedFuture(null);
        } else if (inBatch()) {
            flushed = flushService.flushedToLater(result.endOffset());
        } else {
            flushed = flushService.flushedTo(result.endOffset());
        }
        return replicated(result, flushed);
    }

    private CompletableFuture<AppendResult> replicated(AppendResult result, CompletableFuture<Void> flushed) {
        return flushed.thenCompose(v -> gate.replicatedTo(result.endOffset())).thenApply(v -> result);
    }

    /** Whether the calling thread has an open batch (see the class comment). */
    boolean inBatch() {
        return batch.get()[0];
    }

    /** Opens a batch on the calling thread; false if one is open already. */
    boolean openBatch() {
        boolean[] open = batch.get();
        if (open[0]) {
            return false;
        }
        open[0] = true;
        return true;
    }

    /**
     * Ends the calling thread's batch: forces the CommitLog here for the appends that wait, unless
     * a force is under way (then the flush thread forces after it), and dispatches what that force
     * made visible here, at most {@link #PASS_HERE_LIMIT_BYTES}. Blocks for the force; completes
     * durability and dispatch futures here. On an event loop only while {@link #forcesQuickly()}:
     * else it does neither and returns false, and the caller has the batch's appends forced on a
     * thread that may block (its lane's, or {@link #endBatchElsewhere}).
     *
     * @param eventLoop whether the calling thread is an event loop (see the class comment)
     */
    boolean endBatch(boolean eventLoop) {
        batch.get()[0] = false;
        if (eventLoop && !forcesQuickly()) {
            return false;
        }
        flushService.forceWaiting();
        dispatcher.passHere(PASS_HERE_LIMIT_BYTES);
        return true;
    }

    /** For a batch an event loop could not end: the flush thread forces for it, the dispatcher passes it. */
    void endBatchElsewhere() {
        flushService.wake();
        dispatcher.wakeUp();
    }

    /** Runs {@code hook} before every force, on the forcing thread; for tests. */
    void beforeForce(Runnable hook) {
        flushService.beforeForce(hook);
    }

    /** Whether the last force was quick enough for an event loop to force (see the class comment). */
    boolean forcesQuickly() {
        return flushService.statistics().lastForceNanos() < INLINE_FORCE_LIMIT_NANOS;
    }

    CompletableFuture<Void> dispatchedTo(long offset) {
        return dispatcher.dispatchedTo(offset);
    }

    CompletableFuture<Void> replicatedAndDispatchedTo(long offset) {
        return gate.replicatedTo(offset).thenCompose(held -> dispatcher.dispatchedTo(offset));
    }

    Optional<String> replicationShortfall() {
        return gate.shortfall();
    }

    CompletableFuture<Void> flushedTo(long offset) {
        return flushService.flushedTo(offset);
    }

    CompletableFuture<Void> writtenTo(long offset) {
        return written.passed(offset);
    }

    /** Runs {@code work} on the dispatch pass that has passed every record below {@code offset}. */
    CompletableFuture<Void> runAt(long offset, Runnable work) {
        return dispatcher.runAt(offset, work);
    }

    long dispatchedOffset() {
        return dispatcher.dispatchedOffset();
    }

    /** Why dispatch is stalled, or null when it is not. */
    String dispatchStallReason() {
        return dispatcher.stallReason();
    }

    FlushStatistics flushStatistics() {
        return flushService.statistics();
    }

    /** Completes the waiters after a last force, then dispatches what is left and stops both threads. */
    void close() {
        flushService.close();
        dispatcher.close();
    }
}
