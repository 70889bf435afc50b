package io.ramjet.server.broker.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.DiskSpaceMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.ramjet.protocol.command.DestinationStats;
import io.ramjet.server.broker.admin.Statistics;
import io.ramjet.storage.FlushStatistics;
import io.ramjet.storage.MessageStore;

import java.io.File;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.LongConsumer;
import java.util.function.ToDoubleFunction;

/**
 * The broker's meters on one registry. Destination depths are sampled by {@link #sample()} (the
 * scrape endpoint samples before each scrape, a timer between them for JMX) into a snapshot the
 * gauges read, so a scrape costs one pass over the subscriptions and nothing is counted on the
 * message path for them; their meters come and go with the destinations. The enqueued and
 * acknowledged counts of a destination only grow while it exists, so they are counters: a
 * Prometheus {@code rate()} of them is the enqueue and dequeue rate, and of a dead-letter
 * queue's the dead-letter rate. Thread-safe.
 */
public final class BrokerMetrics implements AutoCloseable {

    private record DestinationKey(String name, String kind) {
    }

    private final MeterRegistry registry;
    private final Statistics statistics;
    private final Timer send;
    private final Timer pull;
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final Map<DestinationKey, List<Meter>> destinationMeters = new HashMap<>();
    private volatile Map<DestinationKey, DestinationStats> snapshot = Map.of();

    /**
     * @param connections how many client connections are open now
     */
    public BrokerMetrics(MeterRegistry registry, Statistics statistics, MessageStore store, File dataDir,
                         IntSupplier connections) {
        this.registry = registry;
        this.statistics = statistics;
        this.send = Timer.builder("ramjet.send").description("SEND requests, from arrival to response (durable"
                + " for a persistent message)").publishPercentileHistogram().register(registry);
        this.pull = Timer.builder("ramjet.pull").description("PULL requests, from arrival to response, the time"
                + " held waiting for messages included").register(registry);
        FlushStatistics flushes = store.flushStatistics();
        FunctionTimer.builder("ramjet.store.force", flushes, FlushStatistics::forces, FlushStatistics::forceNanos,
                TimeUnit.NANOSECONDS).description("forces (fsync) of the CommitLog that wrote something")
                .register(registry);
        FunctionCounter.builder("ramjet.store.group.commit.appends", flushes, FlushStatistics::waitersCompleted)
                .description("durable appends completed by forces: per force, the group-commit batch size")
                .register(registry);
        Gauge.builder("ramjet.store.commitlog.bytes", store, s -> s.maxPhysicalOffset() - s.minPhysicalOffset())
                .description("bytes of the CommitLog retained").baseUnit("bytes").register(registry);
        Gauge.builder("ramjet.connections", connections, IntSupplier::getAsInt).strongReference(true)
                .description("client connections open").register(registry);
        Gauge.builder("ramjet.consumers", this, m -> m.sum(DestinationStats::consumers))
                .description("consumers attached").register(registry);
        Gauge.builder("ramjet.destinations", this, m -> m.snapshot.size())
                .description("destinations, temporary ones included").register(registry);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new DiskSpaceMetrics(dataDir).bindTo(registry);
        sample();
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** Takes the nanoseconds of one SEND. */
    public LongConsumer sendTimer() {
        return nanos -> send.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Takes the nanoseconds of one PULL. */
    public LongConsumer pullTimer() {
        return nanos -> pull.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Samples every destination's depths and counts, adding and removing their meters as destinations come and go. */
    public synchronized void sample() {
        Map<DestinationKey, DestinationStats> now = new HashMap<>();
        for (DestinationStats d : statistics.destinations(null)) {
            now.put(new DestinationKey(d.name(), d.kind().name()), d);
        }
        snapshot = now;
        destinationMeters.entrySet().removeIf(e -> {
            if (now.containsKey(e.getKey())) {
                return false;
            }
            e.getValue().forEach(registry::remove);
            return true;
        });
        for (DestinationKey key : now.keySet()) {
            destinationMeters.computeIfAbsent(key, this::register);
        }
    }

    private List<Meter> register(DestinationKey key) {
        Tags tags = Tags.of("destination", key.name(), "kind", key.kind());
        List<Meter> meters = new ArrayList<>();
        meters.add(gauge("ramjet.destination.ready", "messages waiting to be delivered (queues)", key, tags,
                DestinationStats::ready));
        meters.add(gauge("ramjet.destination.in.flight", "messages delivered, not yet acknowledged (queues)", key,
                tags, DestinationStats::inFlight));
        meters.add(gauge("ramjet.destination.redelivering", "ready messages delivered before (queues)", key, tags,
                DestinationStats::redelivering));
        meters.add(gauge("ramjet.destination.delayed", "messages waiting for their delivery time", key, tags,
                DestinationStats::delayed));
        meters.add(gauge("ramjet.destination.consumers", "consumers attached", key, tags,
                DestinationStats::consumers));
        meters.add(counter("ramjet.destination.enqueued", "messages that entered the destination", key, tags,
                DestinationStats::enqueued));
        meters.add(counter("ramjet.destination.acknowledged",
                "messages acknowledged, purged, expired, moved or dead-lettered (queues)", key, tags,
                DestinationStats::acknowledged));
        return meters;
    }

    private Meter gauge(String name, String description, DestinationKey key, Tags tags,
                        ToDoubleFunction<DestinationStats> value) {
        return Gauge.builder(name, this, m -> m.value(key, value)).description(description).tags(tags)
                .register(registry);
    }

    private Meter counter(String name, String description, DestinationKey key, Tags tags,
                          ToDoubleFunction<DestinationStats> value) {
        return FunctionCounter.builder(name, this, m -> m.value(key, value)).description(description).tags(tags)
                .register(registry);
    }

    private double value(DestinationKey key, ToDoubleFunction<DestinationStats> value) {
        DestinationStats d = snapshot.get(key);
        return d == null ? Double.NaN : value.applyAsDouble(d);
    }

    private double sum(ToDoubleFunction<DestinationStats> value) {
        return snapshot.values().stream().mapToDouble(value).sum();
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
