package io.ramjet.server.remoting;

import io.ramjet.protocol.command.AnnounceDestinationsRequest;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.RegisterBrokerRequest;
import io.ramjet.protocol.command.UnregisterBrokerRequest;
import io.ramjet.server.config.NameServerSecret;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Keeps a broker registered with every NameServer: registers at {@link #start()}, then again
 * every interval with a fresh request (so created and deleted destinations follow), which is
 * also the broker's heartbeat. {@link #close()} stops and unregisters. A failed registration is
 * logged and retried at the next interval. With a {@link NameServerSecret} every request is
 * signed afresh (new timestamp and nonce). Between registrations, created and deleted
 * destinations are announced as such ({@link #registerSoon}), so a temporary queue's creation
 * costs the NameServers one entry, not every destination of the broker.
 *
 * <p>A NameServer lost (its connection closed, or it did not accept a registration) is registered
 * with again every {@link #RECONNECT_INTERVAL} until it accepts, so a NameServer that restarts
 * knows the broker's destinations within that interval, not at the next heartbeat. The loss and
 * the return are logged once each.
 */
public final class BrokerRegistrar implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerRegistrar.class);

    /** Default time between registrations; NameServers expire a broker after 120 s by default. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(30);

    /** Time between registrations with a NameServer that was lost, until it accepts one. */
    public static final Duration RECONNECT_INTERVAL = Duration.ofMillis(500);

    private final NameServerRegistrations nameServers;
    private final Supplier<RegisterBrokerRequest> registration;
    private final Duration interval;
    private final NameServerSecret secret;
    private final ScheduledExecutorService timer;
    /** Changes told to {@link #registerSoon} and not yet covered by a completed registration. */
    private final AtomicInteger unannounced = new AtomicInteger();
    private final AnnouncedDestinations announced = new AnnouncedDestinations();
    /** NameServers lost and not registered with since. */
    private final Set<String> lost = ConcurrentHashMap.newKeySet();

    /**
     * @param registration what to register, asked anew before every registration
     * @param interval     time between registrations: shorter than the NameServers' expiry
     */
    public BrokerRegistrar(NameServerRegistrations nameServers, Supplier<RegisterBrokerRequest> registration,
                           Duration interval) {
        this(nameServers, registration, interval, null);
    }

    /**
     * @param registration what to register, asked anew before every registration
     * @param interval     time between registrations: shorter than the NameServers' expiry
     * @param secret       signs every request; null sends them unsigned
     */
    public BrokerRegistrar(NameServerRegistrations nameServers, Supplier<RegisterBrokerRequest> registration,
                           Duration interval, NameServerSecret secret) {
        this.nameServers = nameServers;
        this.registration = registration;
        this.interval = interval;
        this.secret = secret;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "ramjet-broker-registrar");
            thread.setDaemon(true);
            return thread;
        });
        nameServers.onConnectionLost(this::lost);
    }

    /** Registers now and schedules the next registrations; the future is the first registration. */
    public CompletableFuture<Void> start() {
        CompletableFuture<Void> first = registerNow();
        long period = interval.toNanos();
        timer.scheduleAtFixedRate(this::registerNow, period, period, TimeUnit.NANOSECONDS);
        return first;
    }

    /** Registers with every NameServer at once, outside the schedule. */
    public CompletableFuture<Void> registerNow() {
        RegisterBrokerRequest request = registration.get();
        if (secret != null) {
            request = BrokerProofs.sign(secret, request, System.currentTimeMillis());
        }
        BrokerInfo broker = request.broker();
        announced.registered(request.destinations());
        return nameServers.registerBroker(request, this::lost).whenComplete((done, failure) -> {
            if (failure != null) {
                LOG.warn("broker {} could not register with any NameServer: {}", broker, failure.toString());
            }
        });
    }

    private void lost(String address) {
        if (lost.add(address)) {
            LOG.info("NameServer {} lost: registering with it every {} ms until it accepts", address,
                    RECONNECT_INTERVAL.toMillis());
            retryLostSoon();
        }
    }

    private void retryLostSoon() {
        try {
            timer.schedule(this::retryLost, RECONNECT_INTERVAL.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            lost.clear();
        }
    }

    private void retryLost() {
        List<CompletableFuture<Void>> attempts = new ArrayList<>();
        for (String address : lost) {
            RegisterBrokerRequest request = registration.get();
            if (secret != null) {
                request = BrokerProofs.sign(secret, request, System.currentTimeMillis());
            }
            BrokerInfo broker = request.broker();
            attempts.add(nameServers.registerWith(address, request).thenRun(() -> {
                lost.remove(address);
                LOG.info("broker {} registered again with NameServer {}", broker, address);
            }));
        }
        CompletableFuture.allOf(attempts.toArray(CompletableFuture[]::new)).whenComplete((done, failure) -> {
            if (!lost.isEmpty()) {
                retryLostSoon();
            }
        });
    }

    /**
     * Announces the destinations created and deleted since the last registration or announcement;
     * registers whole when that is not known or a NameServer refused (it restarted, say).
     */
    private CompletableFuture<Void> announceChanges() {
        RegisterBrokerRequest request = registration.get();
        Optional<AnnouncedDestinations.Changes> changes = announced.changesTo(request.destinations());
        if (changes.isEmpty()) {
            return registerNow();
        }
        if (changes.get().none()) {
            return CompletableFuture.completedFuture(null);
        }
        AnnounceDestinationsRequest announcement = new AnnounceDestinationsRequest(request.broker(), request.epoch(),
                changes.get().added(), changes.get().removed());
        return nameServers.announceDestinations(announcement).handle((done, failure) -> failure)
                .thenCompose(failure -> {
                    if (failure == null) {
                        return CompletableFuture.completedFuture(null);
                    }
                    LOG.debug("broker {} registers whole: announcing its destinations failed ({})",
                            request.broker(), failure.toString());
                    announced.forget();
                    return registerNow();
                });
    }

    /**
     * Announces the broker's destination changes soon, on the registrar's thread, so the caller
     * does not compare the destinations. Coalesced: while an announcement is in flight, the
     * changes told meanwhile ride on one more after it, so creating 10,000 destinations in a
     * burst sends a handful of announcements.
     */
    public void registerSoon() {
        if (unannounced.getAndIncrement() == 0) {
            announce();
        }
    }

    private void announce() {
        try {
            timer.execute(() -> {
                int covered = unannounced.get();
                announceChanges().whenComplete((done, failure) -> {
                    if (unannounced.addAndGet(-covered) > 0) {
                        announce();
                    }
                });
            });
        } catch (RejectedExecutionException closed) {
            unannounced.set(0);
        }
    }

    /** Stops the heartbeats and unregisters, waiting up to the client's timeout. */
    @Override
    public void close() {
        timer.shutdownNow();
        RegisterBrokerRequest request = registration.get();
        UnregisterBrokerRequest leaving = UnregisterBrokerRequest.of(request.broker());
        if (secret != null) {
            leaving = BrokerProofs.sign(secret, leaving, System.currentTimeMillis());
        }
        try {
            nameServers.unregisterBroker(leaving).join();
        } catch (RuntimeException e) {
            LOG.warn("broker {} could not unregister: {}", request.broker(), e.toString());
        }
    }
}
