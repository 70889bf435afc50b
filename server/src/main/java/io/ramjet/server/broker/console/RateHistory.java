package io.ramjet.server.broker.console;

import io.ramjet.model.stats.DestinationStats;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The enqueue and dequeue rates of the last minutes, kept by the broker so that a page opened now
 * shows them at once: {@link #sample()} (on the broker's timer, every {@code periodMillis}) reads
 * every destination's enqueued and acknowledged counts and keeps the rates since the previous
 * sample, per destination and in total, for the last {@code points} samples. A destination new
 * since the previous sample had nothing then (its counts start at 0 when it is created); at the
 * first sample, which has no previous one, no rate is known. A deleted destination's history goes
 * with it.
 * {@code GET /api/history[?destination=KIND:name]} answers the points, oldest first, as
 * {@link Series}. Thread-safe: sampling and answering share the instance's lock.
 */
public final class RateHistory {

    /** The key of the total of every destination. */
    static final String ALL = "";

    /** Points in time order: {@code t} in epoch milliseconds, rates in messages per second. */
    record Series(long periodMillis, List<Long> t, List<Double> enqueue, List<Double> dequeue) {
    }

    private record Point(long at, double enqueue, double dequeue) {
    }

    private record Counts(long at, long enqueued, long acknowledged) {
    }

    private final Supplier<List<DestinationStats>> destinations;
    private final LongSupplier clock;
    private final long periodMillis;
    private final int points;
    private final Map<String, Counts> last = new HashMap<>();
    /** When the previous sample was taken, -1 before the first. */
    private long lastAt = -1;
    private final Map<String, Deque<Point>> history = new HashMap<>();

    /**
     * @param destinations every destination's figures now
     * @param clock        epoch milliseconds
     * @param points       samples kept: the history spans {@code points * periodMillis}
     */
    public RateHistory(Supplier<List<DestinationStats>> destinations, LongSupplier clock, long periodMillis,
                       int points) {
        this.destinations = destinations;
        this.clock = clock;
        this.periodMillis = periodMillis;
        this.points = points;
    }

    public long periodMillis() {
        return periodMillis;
    }

    /** Reads the counts now and keeps the rates since the previous sample. */
    public void sample() {
        List<DestinationStats> now = destinations.get();
        long at = clock.getAsLong();
        synchronized (this) {
            Map<String, Counts> seen = new HashMap<>();
            double totalEnqueue = 0;
            double totalDequeue = 0;
            for (DestinationStats d : now) {
                String key = key(d);
                Counts counts = new Counts(at, d.enqueued(), d.acknowledged());
                seen.put(key, counts);
                Counts before = last.getOrDefault(key, lastAt < 0 ? null : new Counts(lastAt, 0, 0));
                if (before != null && at > before.at()) {
                    double seconds = (at - before.at()) / 1000.0;
                    double enqueue = Math.max(0, counts.enqueued() - before.enqueued()) / seconds;
                    double dequeue = Math.max(0, counts.acknowledged() - before.acknowledged()) / seconds;
                    add(key, new Point(at, enqueue, dequeue));
                    totalEnqueue += enqueue;
                    totalDequeue += dequeue;
                }
            }
            last.clear();
            last.putAll(seen);
            lastAt = at;
            history.keySet().removeIf(k -> !k.equals(ALL) && !seen.containsKey(k));
            add(ALL, new Point(at, totalEnqueue, totalDequeue));
        }
    }

    Object history(ApiCall call) {
        String key = call.param("destination");
        return series(key == null ? ALL : key);
    }

    /** The points of a destination ({@code KIND:name}) or of all ({@link #ALL}), oldest first. */
    synchronized Series series(String key) {
        Deque<Point> kept = history.getOrDefault(key, new ArrayDeque<>());
        List<Long> t = new ArrayList<>(kept.size());
        List<Double> enqueue = new ArrayList<>(kept.size());
        List<Double> dequeue = new ArrayList<>(kept.size());
        for (Point p : kept) {
            t.add(p.at());
            enqueue.add(p.enqueue());
            dequeue.add(p.dequeue());
        }
        return new Series(periodMillis, t, enqueue, dequeue);
    }

    private void add(String key, Point point) {
        Deque<Point> kept = history.computeIfAbsent(key, k -> new ArrayDeque<>());
        kept.addLast(point);
        while (kept.size() > points) {
            kept.removeFirst();
        }
    }

    private static String key(DestinationStats d) {
        return d.kind() + ":" + d.name();
    }
}
