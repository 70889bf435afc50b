package io.ramjet.storage;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The one owner of what happens to a record after it is appended to the CommitLog: force,
 * replicate, dispatch, answer, and which thread does each. Every other class (the store, the
 * broker's send lanes and transaction ends) asks it; none forces or dispatches on its own.
 *
 * <h2>Stages and their threads</h2>
 * <ol>
 *   <li><b>Append</b>: the caller's thread, under the store's append lock ({@link MessageStore}).
 *       Then {@link #appended} wakes the flush thread first when the append waits for a force,
 *       then the dispatcher (an append made for a caller that forces on its own wakes neither).</li>
 *   <li><b>Force</b> ({@link FlushService}): the flush thread as soon as an append waits (group
 *       commit: one force covers every append written before it), else every flush interval; or
 *       the appending thread itself in {@link #forceWaiting}, when no force is under way.</li>
 *   <li><b>Replicate</b> ({@link ReplicationGate}): under synchronous replication, the replication
 *       threads tell the gate how far the in-sync set holds the log.</li>
 *   <li><b>Dispatch</b> ({@link Dispatcher}): the dispatcher thread, or an appender in
 *       {@link #forceWaiting} right after its force, for at most {@link Dispatcher#HERE_LIMIT_BYTES}.
 *       Records are given to the {@link DispatchListener} (and so, for a message, to consumers) in
 *       log order, each only once the gate holds it. <b>Visible only when durable:</b> a record
 *       that hands a durable message to consumers (a PERSISTENT message, a COMMIT; see
 *       {@link Dispatcher#waitsForForce}) is passed only once the CommitLog is forced past it,
 *       whatever the flush policy: a consumer never receives a persistent message that a power
 *       loss could erase. The dispatcher asks the flush thread for that force when no append waits
 *       for one, and the flush thread wakes it after each force, so many records share one force.
 *       Since the ConsumeQueues are written by dispatch, no entry of a durable message is ever
 *       ahead of the forced log.</li>
 *   <li><b>Answer</b>: the futures this class hands out complete on the thread that finished the
 *       last stage they wait for (flush, dispatch, an appender's or a replication thread): their
 *       callbacks must be short (write an answer, append one record), never block.</li>
 * </ol>
 *
 * <h2>Event loops</h2>
 * An I/O (event loop) thread may append, and at the end of the reads at hand call
 * {@link #forceWaiting} once, only while {@link #forcesQuickly()}: the CommitLog's last force took
 * under {@link #INLINE_FORCE_LIMIT_NANOS}, so the other connections of that thread wait at most
 * about that long; a dispatch pass there is bounded by {@link Dispatcher#HERE_LIMIT_BYTES}. A
 * force already under way elsewhere is never waited for on an event loop: the flush thread
 * forces again after it. Anything that may block longer (a disk guard's hold, a slow disk) runs
 * on the send thread or the flush thread.
 *
 * <h2>What a waiter is promised</h2>
 * <ul>
 *   <li>{@link #appended}{@code (result, true, ...)}, {@link #durable}{@code (result, true)} and
 *       {@link #durableAtForce} complete only once the CommitLog is forced past the record (under
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

    private final FlushPolicy policy;
    private final FlushService flushService;
    private final Dispatcher dispatcher;
    private final ReplicationGate gate;
    private final OffsetProgress written;

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
     * Takes a record just appended into the pipeline: wakes the flush thread first if the append
     * waits for durability (the force takes longer than the dispatch, so it starts first), then
     * the dispatcher if {@code wakeDispatcher} (else the caller's {@link #forceWaiting} passes it).
     *
     * @return completes as {@link #durable}
     */
    CompletableFuture<AppendResult> appended(AppendResult result, boolean waitForFlush, boolean wakeDispatcher) {
        CompletableFuture<AppendResult> durable = durable(result, waitForFlush);
        if (wakeDispatcher) {
            dispatcher.wakeUp();
        }
        written.reached(result.endOffset());
        return durable;
    }

    /**
     * Takes a record just appended by a thread that forces on its own ({@link #forceWaiting}):
     * wakes neither the flush thread nor the dispatcher, only what waits for written bytes (a
     * replica's held fetch, which must not wait for the force: under synchronous replication the
     * force's waiters wait for that very fetch).
     *
     * @return completes as {@link #durableAtForce}
     */
    CompletableFuture<AppendResult> appendedAtForce(AppendResult result) {
        written.reached(result.endOffset());
        return durableAtForce(result);
    }

    /** Takes replicated bytes just written up to {@code end}; completes once they are forced. */
    CompletableFuture<Long> appendedReplicated(long end) {
        dispatcher.wakeUp();
        written.reached(end);
        return flushService.flushedTo(end).thenApply(v -> end);
    }

    /**
     * Completes with {@code result} once the log up to its end is as durable as an append made
     * with {@code waitForFlush} would be: forced under SYNC_GROUP_COMMIT, and held by the gate.
     */
    CompletableFuture<AppendResult> durable(AppendResult result, boolean waitForFlush) {
        if (!waitForFlush) {
            return CompletableFuture.completedFuture(result);
        }
        return replicated(result, policy == FlushPolicy.SYNC_GROUP_COMMIT
                ? flushService.flushedTo(result.endOffset()) : CompletableFuture.completedFuture(null));
    }

    /** As {@link #durable}{@code (result, true)}, its force left to the caller's next {@link #forceWaiting}. */
    CompletableFuture<AppendResult> durableAtForce(AppendResult result) {
        return replicated(result, policy == FlushPolicy.SYNC_GROUP_COMMIT
                ? flushService.flushedToLater(result.endOffset()) : CompletableFuture.completedFuture(null));
    }

    private CompletableFuture<AppendResult> replicated(AppendResult result, CompletableFuture<Void> flushed) {
        return flushed.thenCompose(v -> gate.replicatedTo(result.endOffset())).thenApply(v -> result);
    }

    /**
     * For a thread that has no more appends at hand: forces the CommitLog here if appends wait for
     * a force and none is under way (else the flush thread forces for them), then dispatches what
     * the force made visible on this thread (see {@link Dispatcher#passHere}). Blocks for the force.
     */
    void forceWaiting() {
        flushService.forceWaiting();
        dispatcher.passHere();
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
