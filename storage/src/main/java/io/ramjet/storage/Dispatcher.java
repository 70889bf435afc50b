package io.ramjet.storage;

import io.ramjet.protocol.record.MessageRecordView;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread that follows the CommitLog and gives each newly written record to the
 * {@link DispatchListener}, off the append path: appenders only wake it.
 *
 * <p>On disk: nothing of its own; the listener writes ConsumeQueue entries. Threading: its own
 * thread; {@link #dispatchedOffset()} and {@link #awaitDispatched} from any thread. After a
 * crash: what it had dispatched past the checkpoint is redone by recovery.
 */
final class Dispatcher {

    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final CommitLog log;
    private final DispatchListener listener;
    private final ConsumeQueueTable queues;
    private final Thread thread;
    private final Object progress = new Object();
    private volatile long dispatchedOffset;
    private volatile boolean running = true;
    private volatile boolean parked;

    Dispatcher(CommitLog log, DispatchListener listener, ConsumeQueueTable queues, long from) {
        this.log = log;
        this.listener = listener;
        this.queues = queues;
        this.dispatchedOffset = from;
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

    /** Tells the thread that records were appended; costs nothing while it is busy. */
    void wakeUp() {
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    /** Waits until every record below {@code offset} is dispatched; false on timeout. */
    boolean awaitDispatched(long offset, long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        synchronized (progress) {
            while (dispatchedOffset < offset) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(progress, left);
            }
        }
        return true;
    }

    private void run() {
        while (running) {
            if (!dispatchAvailable()) {
                parked = true;
                if (dispatchedOffset >= log.writePosition() && running) {
                    LockSupport.parkNanos(this, IDLE_PARK_NANOS);
                }
                parked = false;
            }
        }
        dispatchAvailable();
    }

    /** Dispatches what was written; false if there was nothing. */
    private boolean dispatchAvailable() {
        long position = dispatchedOffset;
        long end = log.writePosition();
        if (position >= end) {
            return false;
        }
        while (position < end) {
            position = log.skipPadding(position);
            if (position >= end) {
                break;
            }
            MessageRecordView record = log.read(position);
            try {
                listener.onRecord(record, queues);
            } catch (RuntimeException e) {
                LOG.error("dispatch listener failed on {}", record, e);
            }
            position += record.totalSize();
        }
        dispatchedOffset = position;
        synchronized (progress) {
            progress.notifyAll();
        }
        return true;
    }

    /** Dispatches everything written so far, then stops the thread. */
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
