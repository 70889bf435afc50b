package io.ramjet.storage;

import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordFlags;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dispatch stage of the {@link DurabilityPipeline}, which alone decides who calls what here.
 * Follows the CommitLog and gives each newly written record to the {@link DispatchListener}, in
 * log order, one pass at a time: on its own thread, which appenders and forces wake, or on a
 * lane's thread right after that thread forced the CommitLog ({@link #passHere}), so a lane puts
 * its records in their ConsumeQueues without waking this thread.
 *
 * <p>Durability: a record that {@link #waitsForForce} is not passed before the CommitLog is
 * forced past it; a pass stops there and asks for a force ({@code forceWanted}), and the force
 * wakes the thread again. Everything after it waits too (log order).
 *
 * <p>Failures: a listener that throws a {@link StoreException} (a ConsumeQueue file that cannot
 * be created on a full disk, a write that fails) stalls dispatch at that record: it is given
 * again after a backoff (50 ms doubling to 1 s) until it goes through, and
 * {@link #dispatchedOffset()} stays below it, so checkpoints stay below it too and recovery
 * rebuilds its entries if the process dies meanwhile. The stall is logged once when it begins
 * and once when it ends, and {@link #stallReason()} says it is on, so the store refuses new
 * messages. Any other exception is a bug in the listener, not a lack of room: retrying would
 * fail forever, so it is logged and the record is passed over, as before.
 *
 * <p>It passes no record that the {@link ReplicationGate} does not hold yet: under synchronous
 * replication a record waits here until the in-sync slaves have it, and the gate's advance
 * wakes the thread.
 *
 * <p>On disk: nothing of its own; the listener writes ConsumeQueue entries. Threading: a pass
 * holds {@link #pass}, so the listener, the tasks of {@link #runAt} (run between records) and
 * the futures of {@link #dispatchedTo} see one thread at a time, in log order, whichever thread it
 * is; {@link #dispatchedOffset()}, {@link #dispatchedTo}, {@link #stallReason()}, {@link #runAt}
 * and {@link #passHere} from any thread. After a crash: what it had dispatched past the
 * checkpoint is redone by recovery.
 */
final class Dispatcher {

    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long FIRST_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long MAX_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Work to do on this thread once every record below {@code at} is dispatched. */
    private record Task(long at, Runnable work, CompletableFuture<Void> done) {
    }

    private final CommitLog log;
    private final DispatchListener listener;
    private final ConsumeQueueTable queues;
    private final Thread thread;
    private final OffsetProgress progress;
    private final ReplicationGate gate;
    private final Runnable forceWanted;
    private final ConcurrentLinkedQueue<Task> tasks = new ConcurrentLinkedQueue<>();
    /** Held across one pass, by this thread or an appender's. */
    private final ReentrantLock pass = new ReentrantLock();
    private volatile long dispatchedOffset;
    private volatile boolean running = true;
    private volatile boolean parked;
    private volatile String stallReason;
    private long stalledSince;
    private volatile long retryNanos = FIRST_RETRY_NANOS;
    /** The gate's offset at which the last pass stopped short of a record it does not hold yet; -1 if none. */
    private volatile long heldAt = -1;
    /** The flushed position at which the last pass stopped short of a record that waits for a force; -1 if none. */
    private volatile long forceHeldAt = -1;

    /** @param forceWanted asks for a force (without blocking) when a record waits for one */
    Dispatcher(CommitLog log, DispatchListener listener, ConsumeQueueTable queues, long from, ReplicationGate gate,
               Runnable forceWanted) {
        this.log = log;
        this.gate = gate;
        this.forceWanted = forceWanted;
        this.listener = listener;
        this.queues = queues;
        this.dispatchedOffset = from;
        this.progress = new OffsetProgress(from);
        this.thread = new Thread(this::run, "ramjet-dispatch");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Every record below this offset has been given to the listener. */
    long dispatchedOffset() {
        return dispatchedOffset;
    }

    /** Why dispatch is stalled at {@link #dispatchedOffset()}, or null when it is not. */
    String stallReason() {
        return stallReason;
    }

    /** Tells the thread that records were appended; costs nothing while it is busy. */
    void wakeUp() {
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Completes once every record below {@code offset} has been given to the listener, the
     * record it failed on included; on the thread of that pass, so callbacks must be short.
     */
    CompletableFuture<Void> dispatchedTo(long offset) {
        return progress.passed(offset);
    }

    /**
     * Runs {@code work} in a pass, once every record below {@code offset} is dispatched, before
     * any record at or after it is.
     */
    CompletableFuture<Void> runAt(long offset, Runnable work) {
        Task task = new Task(offset, work, new CompletableFuture<>());
        tasks.add(task);
        LockSupport.unpark(thread);
        if (!thread.isAlive() && !running) {
            tasks.remove(task);
            task.done().completeExceptionally(new StoreException("store closed"));
        }
        return task.done();
    }

    /**
     * Dispatches what is written on the calling thread, one pass, for a lane that has just forced
     * the CommitLog: when no pass is under way, dispatch is not stalled and at most
     * {@code limitBytes} wait; otherwise (and when more is written meanwhile) wakes the thread,
     * so a record appended without waking it is passed either way. Never waits for another pass.
     */
    void passHere(long limitBytes) {
        long behind = log.writePosition() - dispatchedOffset;
        if (behind <= 0) {
            return;
        }
        if (behind > limitBytes || stallReason != null || !pass.tryLock()) {
            wakeUp();
            return;
        }
        boolean more;
        try {
            if (!running) {
                return; // closing: the thread's last pass dispatches what is left
            }
            dispatchAvailable();
            more = !nothingToPass();
        } finally {
            pass.unlock();
        }
        if (more) {
            wakeUp();
        }
    }

    private boolean passOnce() {
        pass.lock();
        try {
            return dispatchAvailable();
        } finally {
            pass.unlock();
        }
    }

    private void run() {
        while (running) {
            if (!passOnce()) {
                parked = true;
                if (stallReason != null) {
                    LockSupport.parkNanos(this, retryNanos);
                    retryNanos = Math.min(MAX_RETRY_NANOS, retryNanos * 2);
                } else if (nothingToPass() && tasks.isEmpty() && running) {
                    LockSupport.parkNanos(this, IDLE_PARK_NANOS);
                }
                parked = false;
            }
        }
        passOnce();
        Task left;
        while ((left = tasks.poll()) != null) {
            left.done().completeExceptionally(new StoreException("store closed before the dispatcher reached "
                    + left.at()));
        }
    }

    /**
     * Whether everything written is passed, or what is left waits for a gate, or a force, that has
     * not moved since.
     */
    private boolean nothingToPass() {
        return dispatchedOffset >= log.writePosition() || (heldAt >= 0 && gate.replicatedOffset() == heldAt)
                || (forceHeldAt >= 0 && log.flushedPosition() == forceHeldAt);
    }

    /**
     * Whether the record hands a durable message to consumers, so that it is passed only once the
     * CommitLog is forced past it: a PERSISTENT message, or a COMMIT (which puts its halves in
     * their queues). A NON_PERSISTENT message (which may be lost anyway) and the records that show
     * consumers nothing by themselves (halves, acknowledgements, rollbacks, votes, subscriptions,
     * timer entries, whose messages come back as messages of their own) pass at once.
     */
    static boolean waitsForForce(MessageRecordView record) {
        return switch (record.type()) {
            case NORMAL -> !RecordFlags.isSet(record.flags(), RecordFlags.NON_PERSISTENT);
            case COMMIT -> true;
            default -> false;
        };
    }

    /** Dispatches what was written and the gate holds; false if nothing moved (nothing new, held, or stalled). */
    private boolean dispatchAvailable() {
        long position = dispatchedOffset;
        long end = log.writePosition();
        long held = gate.replicatedOffset();
        long flushed = log.flushedPosition();
        heldAt = -1;
        forceHeldAt = -1;
        runTasksDue(position);
        if (position >= end) {
            return false;
        }
        long start = position;
        while (position < end) {
            position = log.skipPadding(position);
            if (position >= end) {
                break;
            }
            runTasksDue(position);
            MessageRecordView record = log.read(position);
            if (position + record.totalSize() > held) {
                heldAt = held;
                break;
            }
            if (position + record.totalSize() > flushed && waitsForForce(record)) {
                forceHeldAt = flushed;
                forceWanted.run();
                break;
            }
            if (!dispatch(record)) {
                break;
            }
            position += record.totalSize();
        }
        if (position == start) {
            return false;
        }
        dispatchedOffset = position;
        runTasksDue(position);
        return true;
    }

    /**
     * Gives the record to the listener; false if a storage failure stalls dispatch at it. Its
     * waiters hear back either way: a stalled record is retried, but its sender is not kept waiting.
     */
    private boolean dispatch(MessageRecordView record) {
        boolean stalled = false;
        try {
            listener.onRecord(record, queues);
        } catch (RecordReadException e) {
            LOG.error("dispatch listener failed on {}: passed over", record, e);
        } catch (StoreException e) {
            if (stallReason == null) {
                stalledSince = System.nanoTime();
                LOG.error("dispatch stalled at CommitLog offset {}: {}; retrying it until it goes through, "
                        + "new messages are refused meanwhile", record.physicalOffset(), e.getMessage(), e);
            }
            stallReason = String.valueOf(e.getMessage());
            stalled = true;
            return false;
        } catch (RuntimeException e) {
            LOG.error("dispatch listener failed on {}: passed over", record, e);
        } finally {
            long end = record.physicalOffset() + record.totalSize();
            if (!stalled) {
                // before the waiters hear: one that then reads dispatchedOffset (a checkpoint) sees the record passed
                dispatchedOffset = end;
            }
            progress.reached(end);
        }
        if (stallReason != null) {
            LOG.warn("dispatch resumed at CommitLog offset {} after {} ms", record.physicalOffset(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stalledSince));
            stallReason = null;
            retryNanos = FIRST_RETRY_NANOS;
        }
        return true;
    }

    private void runTasksDue(long position) {
        if (tasks.isEmpty()) {
            return;
        }
        for (Iterator<Task> it = tasks.iterator(); it.hasNext(); ) {
            Task task = it.next();
            if (task.at() <= position) {
                it.remove();
                try {
                    task.work().run();
                    task.done().complete(null);
                } catch (RuntimeException e) {
                    task.done().completeExceptionally(e);
                }
            }
        }
    }

    /** Dispatches everything written so far (unless stalled or held by the gate), then stops the thread. */
    void close() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
