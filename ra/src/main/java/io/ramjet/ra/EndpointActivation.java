package io.ramjet.ra;

import io.ramjet.provider.destination.RamjetQueue;
import io.ramjet.provider.destination.RamjetTopic;
import io.ramjet.provider.jms.XaResourceManager;
import jakarta.jms.Destination;
import jakarta.jms.MessageListener;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One activated message endpoint: {@code maxSession} {@link DeliveryWorker}s on the adapter's
 * work manager, each with its own connection, session and consumer on the endpoint's destination.
 * Deliveries are transacted (XA, the endpoint's transaction) when the endpoint says so for
 * {@code onMessage}. Started and stopped once, by the resource adapter.
 */
final class EndpointActivation {

    private static final Logger LOG = LoggerFactory.getLogger(EndpointActivation.class);
    static final Method ON_MESSAGE;

    static {
        try {
            ON_MESSAGE = MessageListener.class.getMethod("onMessage", jakarta.jms.Message.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MessageEndpointFactory factory;
    private final RamjetActivationSpec spec;
    private final ConnectionSettings settings;
    private final Reachability reachability;
    private final XaResourceManager resourceManager;
    private final WorkManager workManager;
    private final String sharedSubscriptionName;
    private final CountDownLatch stopSignal = new CountDownLatch(1);
    private final List<DeliveryWorker> workers = new ArrayList<>();

    EndpointActivation(MessageEndpointFactory factory, RamjetActivationSpec spec, ConnectionSettings settings,
                       Reachability reachability, XaResourceManager resourceManager, WorkManager workManager) {
        this.factory = factory;
        this.spec = spec;
        this.settings = settings;
        this.reachability = reachability;
        this.resourceManager = resourceManager;
        this.workManager = workManager;
        this.sharedSubscriptionName = spec.getSubscriptionName() != null ? spec.getSubscriptionName()
                : "ramjet-endpoint-" + UUID.randomUUID();
    }

    void start() throws ResourceException {
        boolean transacted;
        try {
            transacted = factory.isDeliveryTransacted(ON_MESSAGE);
        } catch (NoSuchMethodException e) {
            throw new jakarta.resource.NotSupportedException("the endpoint is no MessageListener", e);
        }
        Destination destination = destination();
        int sessions = spec.getClientId() != null && !spec.isSharedSubscription() ? 1 : spec.getMaxSession();
        LOG.info("activating {} on {} with {} session(s), {} delivery", factory.getActivationName(), spec,
                sessions, transacted ? "XA-transacted" : "non-transacted");
        for (int i = 0; i < sessions; i++) {
            DeliveryWorker worker = new DeliveryWorker(this, destination, transacted);
            workers.add(worker);
            try {
                workManager.scheduleWork(worker);
            } catch (WorkException e) {
                stop();
                throw new ResourceAdapterInternalException("cannot schedule the deliveries of " + spec, e);
            }
        }
    }

    /** Stops every worker and waits a little for their current deliveries to end. */
    void stop() {
        stopSignal.countDown();
        for (DeliveryWorker worker : workers) {
            worker.release();
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(spec.getReceiveTimeoutMs() + 10_000);
        for (DeliveryWorker worker : workers) {
            worker.awaitEnd(deadline);
        }
        LOG.info("deactivated {}", spec);
    }

    boolean isStopped() {
        return stopSignal.getCount() == 0;
    }

    /** Waits up to {@code millis}, returning early once the activation stops. */
    void pause(long millis) {
        try {
            stopSignal.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    MessageEndpointFactory factory() {
        return factory;
    }

    RamjetActivationSpec spec() {
        return spec;
    }

    /** The resource manager the endpoint's sessions share their XA branches in with the adapter's pooled connections. */
    XaResourceManager resourceManager() {
        return resourceManager;
    }

    ConnectionSettings settings() {
        return settings;
    }

    Reachability reachability() {
        return reachability;
    }

    String sharedSubscriptionName() {
        return sharedSubscriptionName;
    }

    private Destination destination() throws ResourceException {
        String lookup = spec.getDestinationLookup();
        if (lookup == null || lookup.isBlank()) {
            return spec.isTopic() ? new RamjetTopic(spec.getDestination()) : new RamjetQueue(spec.getDestination());
        }
        try {
            return (Destination) new InitialContext().lookup(lookup);
        } catch (NamingException | ClassCastException e) {
            throw new ResourceAdapterInternalException("destinationLookup " + lookup + " names no destination", e);
        }
    }
}
