package io.ramjet.server.broker.metrics;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
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
import io.ramjet.model.DestinationKind;
import io.ramjet.model.stats.DestinationStats;
import io.ramjet.server.broker.admin.Statistics;
import io.ramjet.server.broker.delivery.DiscardCounts;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.idempotence.ProducerTable;
import io.ramjet.storage.FlushStatistics;
import io.ramjet.storage.MessageStore;

import java.io.File;
import java.time.Duration;
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
 * message path for them; their meters come and go with the destinations. The enqueued,
 * expired and dead-lettered counts (the last two from {@link DiscardCounts}) and the
 * acknowledged ones of a destination only grow while it exists, so they are counters: a
 * Prometheus {@code rate()} of them is the enqueue and dequeue rate, and of a dead-letter
 * queue's the dead-letter rate. Thread-safe.
 */
public final class BrokerMetrics implements AutoCloseable {

    /**
     * What the meters read.
     *
     * @param diskUseLimit the disk use (0-1) past which sends are refused
     * @param connections  how many client connections are open now
     * @param producers    how many of them have sent a message
     * @param discards     expired and dead-lettered messages per destination
     */
    public record Sources(Statistics statistics, MessageStore store, File dataDir, double diskUseLimit,
                          IntSupplier connections, IntSupplier producers, DiscardCounts discards) {
    }

    private record DestinationKey(String name, DestinationKind kind) {

        String storageName() {
            return Destination.storageName(kind, name);
        }
    }

    private static final double[] BATCH_BUCKETS = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};

    private final MeterRegistry registry;
    private final Sources sources;
    private final Timer send;
    private final Timer pull;
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final Map<DestinationKey, List<Meter>> destinationMeters = new HashMap<>();
    private volatile Map<DestinationKey, DestinationStats> snapshot = Map.of();

    public BrokerMetrics(MeterRegistry registry, Sources sources) {
        this.registry = registry;
        this.sources = sources;
        // buckets from 10 us: a send answered from memory or by a group-committed force takes tens to
        // hundreds of microseconds, below the 1 ms that Micrometer's timers start at by default
        this.send = Timer.builder("ramjet.send").description("SEND requests, from arrival to response (durable"
                + " for a persistent message)").publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(10_000)).maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry);
        this.pull = Timer.builder("ramjet.pull").description("PULL requests, from arrival to response, the time"
                + " held waiting for messages included").register(registry);
        MessageStore store = sources.store();
        registerStore(store);
        Gauge.builder("ramjet.connections", sources.connections(), IntSupplier::getAsInt).strongReference(true)
                .description("client connections open").register(registry);
        Gauge.builder("ramjet.producers", sources.producers(), IntSupplier::getAsInt).strongReference(true)
                .description("client connections open that have sent a message (the wire names no producer)")
                .register(registry);
        Gauge.builder("ramjet.consumers", this, m -> m.sum(DestinationStats::consumers))
                .description("consumers attached").register(registry);
        Gauge.builder("ramjet.destinations", this, m -> m.snapshot.size())
                .description("destinations, temporary ones included").register(registry);
        Gauge.builder("ramjet.disk.use.limit", sources, Sources::diskUseLimit)
                .description("disk use (0-1) of the data directory's file system past which sends are refused")
                .register(registry);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new DiskSpaceMetrics(sources.dataDir()).bindTo(registry);
        sample();
    }

    private void registerStore(MessageStore store) {
        Timer force = Timer.builder("ramjet.store.force").description("forces (fsync) of the CommitLog that wrote"
                + " something").publishPercentileHistogram().minimumExpectedValue(Duration.ofNanos(10_000))
                .maximumExpectedValue(Duration.ofSeconds(10)).register(registry);
        DistributionSummary batch = DistributionSummary.builder("ramjet.store.group.commit.batch")
                .description("durable appends one force completed (forces that completed none left out)")
                .serviceLevelObjectives(BATCH_BUCKETS).register(registry);
        FlushStatistics flushes = store.flushStatistics();
        flushes.listen((nanos, waiters) -> {
            force.record(nanos, TimeUnit.NANOSECONDS);
            if (waiters > 0) {
                batch.record(waiters);
            }
        });
        FunctionCounter.builder("ramjet.store.group.commit.appends", flushes, FlushStatistics::waitersCompleted)
                .description("durable appends completed by forces: per force, the group-commit batch size")
                .register(registry);
        Gauge.builder("ramjet.store.commitlog.bytes", store, s -> s.maxPhysicalOffset() - s.minPhysicalOffset())
                .description("bytes of the CommitLog retained").baseUnit("bytes").register(registry);
        Gauge.builder("ramjet.store.dispatch.lag", store,
                        s -> Math.max(0, s.maxPhysicalOffset() - s.dispatchedOffset()))
                .description("bytes of the CommitLog written but not yet dispatched to the ConsumeQueues")
                .baseUnit("bytes").register(registry);
    }

    /** Counts the idempotent producers' resends answered without being stored again. */
    public void countProducerDuplicates(ProducerTable producers) {
        FunctionCounter.builder("ramjet.producer.duplicates", producers, ProducerTable::duplicates)
                .description("sends of idempotent producers found already stored: answered, not stored twice")
                .register(registry);
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
        for (DestinationStats d : sources.statistics().destinations(null)) {
            now.put(new DestinationKey(d.name(), d.kind()), d);
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
        Tags tags = Tags.of("destination", key.name(), "kind", key.kind().name());
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
        DiscardCounts discards = sources.discards();
        meters.add(FunctionCounter.builder("ramjet.destination.expired", discards,
                        d -> d.expiredOf(key.storageName())).description("messages that expired before delivery")
                .tags(tags).register(registry));
        meters.add(FunctionCounter.builder("ramjet.destination.dead.lettered", discards,
                        d -> d.deadLetteredOf(key.storageName()))
                .description("messages moved to the dead-letter queue, delivered too often").tags(tags)
                .register(registry));
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
        sources.store().flushStatistics().listen((nanos, waiters) -> { });
        gc.close();
        registry.close();
    }
}
