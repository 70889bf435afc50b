package io.ramjet.bench.workload;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A bound on unconfirmed asynchronous sends, whatever the client: the producer blocks when all
 * slots are taken, each confirmation frees one, and the first failure is kept and rethrown. Each
 * workload wraps it in its client's callback type.
 */
public final class SendSlots {

    private final int size;
    private final Semaphore slots;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    public SendSlots(int size) {
        this.size = size;
        this.slots = new Semaphore(size);
    }

    /** Takes a slot for the next send; rethrows an earlier send's failure. */
    public void acquire() throws Exception {
        slots.acquire();
        rethrow();
    }

    /** A send was confirmed. */
    public void confirmed() {
        slots.release();
    }

    /** A send failed: the first failure is rethrown by the next {@link #acquire} or {@link #awaitAll}. */
    public void failed(Throwable e) {
        failure.compareAndSet(null, e);
        slots.release();
    }

    /** Waits for every send to be confirmed, at most 30 s without progress. */
    public void awaitAll(String what) throws Exception {
        if (!slots.tryAcquire(size, Progress.STALL_NANOS, TimeUnit.NANOSECONDS)) {
            throw new IllegalStateException("asynchronous sends to " + what + " unconfirmed after 30 s: "
                    + (size - slots.availablePermits()) + " outstanding");
        }
        slots.release(size);
        rethrow();
    }

    private void rethrow() throws Exception {
        Throwable e = failure.get();
        if (e instanceof Exception ex) {
            throw ex;
        }
        if (e != null) {
            throw new IllegalStateException(e);
        }
    }
}
