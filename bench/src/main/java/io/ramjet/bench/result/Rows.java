package io.ramjet.bench.result;

import io.ramjet.bench.workload.Acknowledgement;

import java.util.List;

/** The rows of the table, grouped by workload (the numbers bench/README.md and {@code --workloads} use). */
public final class Rows {

    public static final Row PERSISTENT_SEND = new Row(1, "persistent send", "msg/s", true);
    public static final Row NON_PERSISTENT_SEND = new Row(2, "non-persistent send", "msg/s", true);
    public static final Row NON_PERSISTENT_DRAIN = new Row(2, "non-persistent drain, AUTO_ACKNOWLEDGE", "msg/s",
            true);
    public static final List<Integer> COMMIT_EVERY = List.of(1, 10, 100);
    public static final Row LARGE_TRANSACTION = new Row(3, "one transaction of 1,000,000 sends, commit() time", "ms",
            false);
    public static final Row LATENCY_P50 = new Row(4, "latency p50", "us", false);
    public static final Row LATENCY_P99 = new Row(4, "latency p99", "us", false);
    public static final Row LATENCY_P999 = new Row(4, "latency p99.9", "us", false);
    public static final Row SELECTOR_TAGGED = new Row(5, "selector color = 'red', time to its tenth", "ms", false);
    public static final Row SELECTOR_UNTAGGED = new Row(5, "selector n BETWEEN, time to its tenth", "ms", false);
    public static final Row FAN_OUT = new Row(6, "fan-out, 1 topic to the run's subscribers, deliveries", "msg/s", true);
    public static final Row BACKLOG_STORE = new Row(7, "backlog store (async persistent sends)", "msg/s", true);
    public static final Row BACKLOG_HEAP = new Row(7, "backlog broker live heap", "MiB", false);
    public static final Row BACKLOG_RSS = new Row(7, "backlog broker RSS", "MiB", false);
    public static final Row BACKLOG_DRAIN = new Row(7, "backlog drain", "msg/s", true);
    public static final Row ORDERED_GROUPS = new Row(8, "ordered groups, 100 groups x 4 consumers", "msg/s", true);
    public static final Row DESTINATIONS_CREATED = new Row(9, "queues created by one persistent message each", "queue/s",
            true);
    public static final Row DESTINATIONS_DISK = new Row(9, "disk those queues added", "MiB", false);
    public static final Row DESTINATIONS_HEAP = new Row(9, "broker live heap with those queues", "MiB", false);
    public static final Row TEMPORARY_QUEUE_MEAN = new Row(9, "temporary queue create + delete, mean", "us", false);
    public static final Row TEMPORARY_QUEUE_P99 = new Row(9, "temporary queue create + delete, p99", "us", false);

    /** Workload 10: producers sending, then as many competing consumers draining. */
    public static final List<Integer> SCALE_CLIENTS = List.of(1, 8, 64);
    /** Workload 10: durable subscribers of one topic. */
    public static final List<Integer> SCALE_SUBSCRIBERS = List.of(1, 10, 100);
    /** Workload 10: message sizes in bytes. */
    public static final List<Integer> SCALE_SIZES = List.of(256, 64 * 1024, 1024 * 1024);
    /** Workload 10: connections each with a consumer. */
    public static final int SCALE_CONNECTIONS = 500;
    public static final Row CONNECTION_HEAP = new Row(10, "broker live heap per connection with a consumer ("
            + SCALE_CONNECTIONS + ")", "KiB", false);

    /** Workload 11: large message bodies in bytes, streamed by the client's large-message API. */
    public static final List<Integer> LARGE_SIZES = List.of(10 << 20, 100 << 20);

    private Rows() {
    }

    /** Workload 11's streamed persistent send of {@code size}-byte messages. */
    public static Row largeSend(int size) {
        return new Row(11, sizeLabel(size) + " messages, streamed persistent send", "MiB/s", true);
    }

    /** Workload 11's streamed drain of {@code size}-byte messages. */
    public static Row largeDrain(int size) {
        return new Row(11, sizeLabel(size) + " messages, streamed drain", "MiB/s", true);
    }

    /** The client JVM's peak heap over workload 11's send and drain of {@code size}-byte messages. */
    public static Row largeClientHeap(int size) {
        return new Row(11, sizeLabel(size) + " messages, send and drain: client peak heap", "MiB", false);
    }

    /** The brokers' peak heap over workload 11's send and drain of {@code size}-byte messages. */
    public static Row largeBrokerHeap(int size) {
        return peakHeap(new Row(11, sizeLabel(size) + " messages, send and drain", "MiB/s", true));
    }

    /** Workload 11's rows of one message size, in table order. */
    public static List<Row> large(int size) {
        return List.of(largeSend(size), largeDrain(size), largeClientHeap(size), largeBrokerHeap(size));
    }

    /** Workload 10's persistent send with {@code producers} producers. */
    public static Row scaleSend(int producers) {
        return new Row(10, "persistent send, " + producers + (producers == 1 ? " producer" : " producers"), "msg/s",
                true);
    }

    /** Workload 10's drain with {@code consumers} competing consumers, in the client's first mode. */
    public static Row scaleDrain(int consumers) {
        return new Row(10, "persistent drain, " + consumers + " competing " + (consumers == 1 ? "consumer"
                : "consumers"), "msg/s", true);
    }

    /** Workload 10's fan-out of persistent messages to {@code subscribers} durable subscribers. */
    public static Row scaleFanOut(int subscribers) {
        return new Row(10, "fan-out to " + subscribers + " durable " + (subscribers == 1 ? "subscriber"
                : "subscribers") + ", deliveries", "msg/s", true);
    }

    /** Workload 10's persistent send of {@code size}-byte messages. */
    public static Row sizedSend(int size) {
        return new Row(10, "persistent send, " + sizeLabel(size) + " messages", "msg/s", true);
    }

    /** Workload 10's drain of {@code size}-byte messages. */
    public static Row sizedDrain(int size) {
        return new Row(10, "persistent drain, " + sizeLabel(size) + " messages", "msg/s", true);
    }

    private static String sizeLabel(int size) {
        return size >= 1 << 20 ? (size >> 20) + " MiB" : size >= 1 << 10 ? (size >> 10) + " KiB" : size + " B";
    }

    /** Every row of workload 10, in table order. */
    public static List<Row> scale() {
        List<Row> rows = new java.util.ArrayList<>();
        for (int n : SCALE_CLIENTS) {
            rows.add(scaleSend(n));
            rows.add(scaleDrain(n));
        }
        for (int n : SCALE_SUBSCRIBERS) {
            rows.add(scaleFanOut(n));
        }
        for (int size : SCALE_SIZES) {
            rows.add(sizedSend(size));
            rows.add(sizedDrain(size));
        }
        rows.add(CONNECTION_HEAP);
        return rows;
    }

    /** Workload 1's drain of persistent messages in one acknowledgement mode. */
    public static Row persistentDrain(Acknowledgement ack) {
        return new Row(1, "persistent drain, " + ack.label(), "msg/s", true);
    }

    /**
     * The rows whose figure counts messages (sends, drains, deliveries, queues, the latency run's
     * messages), each followed in the table by its brokers' CPU time per 1,000 of them and their
     * peak heap ({@link #cpu}, {@link #peakHeap}).
     */
    public static boolean measuresEfficiency(Row row) {
        return row.equals(LATENCY_P999) || row.unit().equals("msg/s") || row.unit().equals("queue/s");
    }

    /** Whether {@code row} is a CPU or peak heap row ({@link #cpu}, {@link #peakHeap}). */
    public static boolean isEfficiency(Row row) {
        return row.label().contains(": broker CPU per 1,000 ") || row.label().endsWith(": broker peak heap");
    }

    /** The brokers' CPU time per 1,000 messages of {@code row}'s phase. */
    public static Row cpu(Row row) {
        return new Row(row.workload(), efficiencyLabel(row) + ": broker CPU per 1,000 "
                + (row.unit().equals("queue/s") ? "queues" : "msg"), "ms", false);
    }

    /** The brokers' peak heap during {@code row}'s phase. */
    public static Row peakHeap(Row row) {
        return new Row(row.workload(), efficiencyLabel(row) + ": broker peak heap", "MiB", false);
    }

    private static String efficiencyLabel(Row row) {
        return row.equals(LATENCY_P999) ? "latency run" : row.label();
    }

    /** The transacted row for one commit interval. */
    public static Row transacted(int commitEvery) {
        return new Row(3, "transacted send, commit every " + commitEvery, "msg/s", true);
    }

    /** Every row of the given workloads, in table order, each figure of messages followed by its efficiency rows. */
    public static List<Row> of(List<Integer> workloads) {
        List<Row> all = new java.util.ArrayList<>(List.of(PERSISTENT_SEND));
        for (Acknowledgement ack : Acknowledgement.values()) {
            all.add(persistentDrain(ack));
        }
        all.addAll(List.of(NON_PERSISTENT_SEND, NON_PERSISTENT_DRAIN));
        for (int every : COMMIT_EVERY) {
            all.add(transacted(every));
        }
        all.add(LARGE_TRANSACTION);
        all.addAll(List.of(LATENCY_P50, LATENCY_P99, LATENCY_P999, SELECTOR_TAGGED, SELECTOR_UNTAGGED, FAN_OUT,
                BACKLOG_STORE, BACKLOG_HEAP, BACKLOG_RSS, BACKLOG_DRAIN, ORDERED_GROUPS, DESTINATIONS_CREATED,
                DESTINATIONS_DISK, DESTINATIONS_HEAP, TEMPORARY_QUEUE_MEAN, TEMPORARY_QUEUE_P99));
        all.addAll(scale());
        for (int size : LARGE_SIZES) {
            all.addAll(large(size));
        }
        List<Row> withEfficiency = new java.util.ArrayList<>();
        for (Row row : all) {
            withEfficiency.add(row);
            if (measuresEfficiency(row)) {
                withEfficiency.add(cpu(row));
                withEfficiency.add(peakHeap(row));
            }
        }
        return withEfficiency.stream().filter(r -> workloads.contains(r.workload())).toList();
    }
}
