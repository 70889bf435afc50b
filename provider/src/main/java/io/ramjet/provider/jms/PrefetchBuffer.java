package io.ramjet.provider.jms;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Collection;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * A consumer's prefetched messages, taken highest JMSPriority first and, within a priority, in
 * the order they arrived: the spec's "higher priority first where it can" for messages that wait
 * in the client together (Artemis orders its client buffer the same way). Thread-safe: feeds add
 * while the application or the session thread takes.
 *
 * @param <T> what is buffered; {@code priority} gives its JMSPriority, 0-9 (others are clamped),
 *            {@code bytes} its size, summed in {@link #bytes()}
 */
final class PrefetchBuffer<T> {

    private static final int PRIORITIES = 10;

    private final ToIntFunction<T> priority;
    private final ToIntFunction<T> sizeOf;
    private final ArrayDeque<T>[] lanes;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private int size;
    private long bytes;
    /** What {@link #poll} handed out last, until {@link #settled} or put back: see {@link #inHand}. */
    private T inHand;

    @SuppressWarnings("unchecked")
    PrefetchBuffer(ToIntFunction<T> priority, ToIntFunction<T> bytes) {
        this.priority = priority;
        this.sizeOf = bytes;
        this.lanes = new ArrayDeque[PRIORITIES];
        for (int i = 0; i < PRIORITIES; i++) {
            lanes[i] = new ArrayDeque<>();
        }
    }

    private ArrayDeque<T> laneOf(T item) {
        return lanes[Math.max(0, Math.min(PRIORITIES - 1, priority.applyAsInt(item)))];
    }

    /** Adds behind everything of the same priority. */
    void add(T item) {
        lock.lock();
        try {
            laneOf(item).addLast(item);
            size++;
            bytes += sizeOf.applyAsInt(item);
            notEmpty.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Adds several at once: a taker sees all of them or none, so priority orders them together. */
    void addAll(List<T> items) {
        lock.lock();
        try {
            for (T item : items) {
                laneOf(item).addLast(item);
                bytes += sizeOf.applyAsInt(item);
            }
            size += items.size();
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Puts an item just taken back in front of everything of its priority, to be taken again next. */
    void addFirst(T item) {
        lock.lock();
        try {
            if (inHand == item) {
                inHand = null;
            }
            laneOf(item).addFirst(item);
            size++;
            bytes += sizeOf.applyAsInt(item);
            notEmpty.signal();
        } finally {
            lock.unlock();
        }
    }

    /** The next item, waiting up to {@code timeout} for one; null when none came. */
    T poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (size == 0) {
                if (nanos <= 0) {
                    return null;
                }
                nanos = notEmpty.awaitNanos(nanos);
            }
            inHand = takeLocked();
            return inHand;
        } finally {
            lock.unlock();
        }
    }

    /** Waits up to {@code timeout} until an item is buffered, taking none; whether one is. */
    boolean awaitItem(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (size == 0) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = notEmpty.awaitNanos(nanos);
            }
            // the wake-up this wait took may have been meant for a taker
            notEmpty.signal();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The item {@link #poll} handed out last, while its taker has not {@link #settled} it: taken
     * out of the buffer and counted as in hand in one step, so that whoever drops the buffer
     * ({@link #removeIf}) and then asks this sees every item either still buffered or in hand.
     */
    T inHand() {
        lock.lock();
        try {
            return inHand;
        } finally {
            lock.unlock();
        }
    }

    /** The taker is done with {@code item} (acknowledged or handed to the session to keep). */
    void settled(T item) {
        lock.lock();
        try {
            if (inHand == item) {
                inHand = null;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Moves everything into {@code sink} in the order it would have been taken. */
    void drainTo(Collection<? super T> sink) {
        lock.lock();
        try {
            while (size > 0) {
                sink.add(takeLocked());
            }
        } finally {
            lock.unlock();
        }
    }

    /** Removes what would be taken last, keeping the first {@code keep}; returns the removed items. */
    List<T> trimTo(int keep) {
        lock.lock();
        try {
            List<T> removed = new ArrayList<>();
            for (int p = 0; p < PRIORITIES && size > keep; p++) {
                while (size > keep && !lanes[p].isEmpty()) {
                    T item = lanes[p].pollLast();
                    removed.add(item);
                    size--;
                    bytes -= sizeOf.applyAsInt(item);
                }
            }
            return removed;
        } finally {
            lock.unlock();
        }
    }

    /** Drops every item {@code test} accepts; returns how many. */
    int removeIf(Predicate<? super T> test) {
        lock.lock();
        try {
            int removed = 0;
            for (ArrayDeque<T> lane : lanes) {
                for (Iterator<T> it = lane.iterator(); it.hasNext(); ) {
                    T item = it.next();
                    if (test.test(item)) {
                        it.remove();
                        removed++;
                        bytes -= sizeOf.applyAsInt(item);
                    }
                }
            }
            size -= removed;
            return removed;
        } finally {
            lock.unlock();
        }
    }

    /** The sum of the sizes of what is buffered. */
    long bytes() {
        lock.lock();
        try {
            return bytes;
        } finally {
            lock.unlock();
        }
    }

    int size() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    private T takeLocked() {
        for (int p = PRIORITIES - 1; p >= 0; p--) {
            T item = lanes[p].pollFirst();
            if (item != null) {
                size--;
                bytes -= sizeOf.applyAsInt(item);
                return item;
            }
        }
        throw new IllegalStateException("size " + size + " but every lane is empty");
    }
}
