package io.ramjet.bench.result;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The figures of one run: for each row, in the order measured, one {@link Cell} per peer.
 * Ratios are always Ramjet's figure divided by the peer's, whatever the unit, so above 1 is
 * better for Ramjet on a throughput row and worse on a latency, time or memory row.
 * Not thread-safe: the benchmark fills it from one thread.
 */
public final class Results {

    /** The peer every ratio is taken from. */
    public static final String RAMJET = "ramjet";
    /** The subject of the run's own settings (date, machine, options). */
    public static final String RUN = "run";

    private final List<String> peers;
    private final Map<Row, Map<String, Cell>> cells = new LinkedHashMap<>();
    private final Map<String, Map<String, String>> settings = new LinkedHashMap<>();

    public Results(List<String> peers) {
        this.peers = List.copyOf(peers);
    }

    public List<String> peers() {
        return peers;
    }

    /** The peers other than Ramjet, in order: the columns a ratio is taken against. */
    public List<String> others() {
        List<String> others = new ArrayList<>(peers);
        others.remove(RAMJET);
        return others;
    }

    public void put(Row row, String peer, Cell cell) {
        cells.computeIfAbsent(row, r -> new LinkedHashMap<>()).put(peer, cell);
    }

    /**
     * Records how {@code subject} (a peer, or {@link #RUN} for the run as a whole) was set up:
     * its settings in order, added to those recorded before.
     */
    public void settings(String subject, Map<String, String> values) {
        settings.computeIfAbsent(subject, s -> new LinkedHashMap<>()).putAll(values);
    }

    /** The settings recorded per subject, in the order recorded. */
    public Map<String, Map<String, String>> settings() {
        return settings;
    }

    /** Whether a cell was put for this row and peer. */
    public boolean has(Row row, String peer) {
        return cells.getOrDefault(row, Map.of()).containsKey(peer);
    }

    public List<Row> rows() {
        return List.copyOf(cells.keySet());
    }

    /** The cell of a row and a peer; an n/a cell if that pair was never measured. */
    public Cell cell(Row row, String peer) {
        Cell c = cells.getOrDefault(row, Map.of()).get(peer);
        return c != null ? c : Cell.notApplicable("not run");
    }

    /**
     * The results of several rounds over the same peers as one: per row and peer the
     * {@link Cell#median median} of the rounds' cells. Rows come in the first round's order.
     */
    public static Results median(List<Results> rounds) {
        Results first = rounds.get(0);
        Results out = new Results(first.peers);
        first.settings.forEach(out::settings);
        for (Row row : first.rows()) {
            for (String peer : first.peers) {
                List<Cell> cells = new ArrayList<>();
                for (Results r : rounds) {
                    if (r.has(row, peer)) {
                        cells.add(r.cell(row, peer));
                    }
                }
                if (!cells.isEmpty()) {
                    out.put(row, peer, Cell.median(cells));
                }
            }
        }
        return out;
    }

    /** The rows {@code keep} accepts, with their cells and the settings. */
    public Results only(java.util.function.Predicate<Row> keep) {
        Results out = new Results(peers);
        settings.forEach(out::settings);
        for (Map.Entry<Row, Map<String, Cell>> e : cells.entrySet()) {
            if (keep.test(e.getKey())) {
                e.getValue().forEach((peer, cell) -> out.put(e.getKey(), peer, cell));
            }
        }
        return out;
    }

    /** Ramjet's figure over the peer's, where both exist and the peer's is not zero. */
    public OptionalDouble ratio(Row row, String peer) {
        Cell ramjet = cell(row, RAMJET);
        Cell other = cell(row, peer);
        if (!peers.contains(RAMJET) || !ramjet.hasValue() || !other.hasValue() || other.value() == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(ramjet.value() / other.value());
    }
}
