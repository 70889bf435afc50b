package io.ramjet.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Stops a broker at random moments and restarts it on its data: {@code kills} times with
 * {@code kill -9} and {@code cleanStops} times with SIGTERM, in a random order, each after a
 * random delay in [min, max) from the previous restart. The seed is printed; running with
 * {@code -Dreliability.seed=S} replays the same plan. Runs on its own thread.
 */
final class Chaos implements AutoCloseable {

    private final BrokerProcess broker;
    private final Random random;
    private final long seed;
    private final List<Boolean> plan = new ArrayList<>();
    private final Duration min;
    private final Duration max;
    private final AtomicInteger kills = new AtomicInteger();
    private final AtomicInteger cleanStops = new AtomicInteger();
    private final CountDownLatch cancelled = new CountDownLatch(1);
    private final CountDownLatch done = new CountDownLatch(1);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<Long> downMillis = Collections.synchronizedList(new ArrayList<>());
    private final List<Long> stopAtMillis = Collections.synchronizedList(new ArrayList<>());
    private long startedNanos;
    private Thread thread;

    Chaos(String test, BrokerProcess broker, int kills, int cleanStops, Duration min, Duration max) {
        this.broker = broker;
        this.seed = seed();
        this.random = new Random(seed);
        this.min = min;
        this.max = max;
        for (int i = 0; i < kills; i++) {
            plan.add(Boolean.TRUE);
        }
        for (int i = 0; i < cleanStops; i++) {
            plan.add(Boolean.FALSE);
        }
        Collections.shuffle(plan, random);
        System.out.println("RELIABILITY " + test + ": chaos seed=" + seed + " (replay with -Dreliability.seed="
                + seed + ")");
    }

    /** The seed of this run: {@code -Dreliability.seed} if given, else a fresh one. */
    static long seed() {
        String given = System.getProperty("reliability.seed");
        return given != null ? Long.parseLong(given) : System.nanoTime() ^ System.currentTimeMillis();
    }

    /** A random source derived from this run's seed, for a test's own choices (batch sizes...). */
    Random derived(int stream) {
        return new Random(seed * 31 + stream);
    }

    Chaos start() {
        startedNanos = System.nanoTime();
        thread = new Thread(this::run, "chaos");
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    private void run() {
        try {
            for (boolean kill : plan) {
                long delay = min.toMillis() + (long) (random.nextDouble() * (max.toMillis() - min.toMillis()));
                if (cancelled.await(delay, TimeUnit.MILLISECONDS)) {
                    return;
                }
                long down = System.nanoTime();
                stopAtMillis.add(TimeUnit.NANOSECONDS.toMillis(down - startedNanos));
                if (kill) {
                    broker.kill();
                    kills.incrementAndGet();
                } else {
                    broker.stop();
                    cleanStops.incrementAndGet();
                }
                broker.restart();
                downMillis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - down));
            }
        } catch (Throwable t) {
            failure.set(t);
        } finally {
            done.countDown();
        }
    }

    /** Waits for the plan to finish and rethrows a failure to restart the broker. */
    void awaitDone(Duration timeout) throws Exception {
        if (!done.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("chaos plan not finished within " + timeout);
        }
        Throwable t = failure.get();
        if (t instanceof Exception e) {
            throw e;
        }
        if (t != null) {
            throw new AssertionError(t);
        }
    }

    boolean isDone() {
        return done.getCount() == 0;
    }

    int kills() {
        return kills.get();
    }

    int cleanStops() {
        return cleanStops.get();
    }

    /** How long each stop-to-ready took, in ms. */
    List<Long> downtimes() {
        synchronized (downMillis) {
            return List.copyOf(downMillis);
        }
    }

    /** When each stop happened, in ms after {@link #start}. */
    List<Long> stopTimes() {
        synchronized (stopAtMillis) {
            return List.copyOf(stopAtMillis);
        }
    }

    /** The figures of the plan for a summary line. */
    String figures() {
        return "cleanStops=" + cleanStops() + " stopsAtMs=" + stopTimes() + " restartMs=" + downtimes() + " seed=" + seed;
    }

    @Override
    public void close() throws InterruptedException {
        cancelled.countDown();
        if (thread != null) {
            thread.join(TimeUnit.SECONDS.toMillis(70));
        }
    }
}
