package io.ramjet.provider.client;

import java.util.ArrayList;
import java.util.List;

/**
 * The gate between a consumer's pulls and its pauses: every pull is {@link #enter entered}
 * before it goes out and {@link #leave left} once its messages are taken in (on whatever thread
 * its answer arrives); {@link #pause} stops new pulls and waits until none is out, so that a
 * recover or a rollback sees no message arrive until {@link #resume}. A pause waiting is not
 * overtaken by new pulls; {@link #pauseThen} does the same without waiting. Thread-safe.
 */
public final class Intake {

    private int pulls;
    private int pauses;
    private final List<Runnable> onceIdle = new ArrayList<>();

    /** Waits while paused, then counts a pull out. */
    public synchronized void enter() throws InterruptedException {
        while (pauses > 0) {
            wait();
        }
        pulls++;
    }

    /** A pull's messages are taken in (or it failed). */
    public void leave() {
        List<Runnable> ready;
        synchronized (this) {
            pulls--;
            notifyAll();
            if (pulls > 0 || onceIdle.isEmpty()) {
                return;
            }
            ready = List.copyOf(onceIdle);
            onceIdle.clear();
        }
        ready.forEach(Runnable::run);
    }

    /**
     * Stops new pulls and runs {@code action} once none is out: now on this thread, or on the
     * thread that takes the last one in. The action (or what it starts) must {@link #resume}.
     */
    public void pauseThen(Runnable action) {
        synchronized (this) {
            pauses++;
            if (pulls > 0) {
                onceIdle.add(action);
                return;
            }
        }
        action.run();
    }

    /** Stops new pulls and waits, uninterruptibly, until every pull out is answered and taken in. */
    public synchronized void pause() {
        pauses++;
        boolean interrupted = false;
        while (pulls > 0) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Lets pulls go out again after {@link #pause}. */
    public synchronized void resume() {
        pauses--;
        notifyAll();
    }
}
