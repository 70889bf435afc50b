package io.ramjet.storage;

import io.ramjet.protocol.record.MessageRecordView;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread that follows the CommitLog and gives each newly written record to the
 * {@link DispatchListener}, off the append path: appenders only wake it.
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
 * <p>On disk: nothing of its own; the listener writes ConsumeQueue entries. Threading: its own
 * thread; {@link #dispatchedOffset()}, {@link #dispatchedTo}, {@link #stallReason()} and
 * {@link #runAt} from any thread; tasks given to {@link #runAt} run on this thread, between
 * records. After a crash: what it had dispatched past the checkpoint is redone by recovery.
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
    private final ConcurrentLinkedQueue<Task> tasks = new ConcurrentLinkedQueue<>();
    private volatile long dispatchedOffset;
    private volatile boolean running = true;
    private volatile boolean parked;
    private volatile String stallReason;
    private long stalledSince;
    private long retryNanos = FIRST_RETRY_NANOS;
    /** The gate's offset at which the last pass stopped short of a record it does not hold yet; -1 if none. */
    private long heldAt = -1;

    Dispatcher(CommitLog log, DispatchListener listener, ConsumeQueueTable queues, long from, ReplicationGate gate) {
        this.log = log;
        this.gate = gate;
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
     * record it failed on included; on the dispatcher thread, so callbacks must be short.
     */
    CompletableFuture<Void> dispatchedTo(long offset) {
        return progress.passed(offset);
    }

    /**
     * Runs {@code work} on the dispatcher thread once every record below {@code offset} is
     * dispatched, before any record at or after it is.
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

    private void run() {
        while (running) {
            if (!dispatchAvailable()) {
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
        dispatchAvailable();
        Task left;
        while ((left = tasks.poll()) != null) {
            left.done().completeExceptionally(new StoreException("store closed before the dispatcher reached "
                    + left.at()));
        }
    }

    /** Whether everything written is passed, or what is left waits for a gate that has not moved since. */
    private boolean nothingToPass() {
        return dispatchedOffset >= log.writePosition() || (heldAt >= 0 && gate.replicatedOffset() == heldAt);
    }

    /** Dispatches what was written and the gate holds; false if nothing moved (nothing new, held, or stalled). */
    private boolean dispatchAvailable() {
        long position = dispatchedOffset;
        long end = log.writePosition();
        long held = gate.replicatedOffset();
        heldAt = -1;
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
