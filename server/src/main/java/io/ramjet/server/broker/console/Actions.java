package io.ramjet.server.broker.console;

import io.ramjet.model.DestinationKind;
import io.ramjet.server.broker.admin.MessageMover;
import io.ramjet.server.broker.admin.Purge;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationResolver;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;

import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The console's actions, as the operator's commands do them: {@code POST /api/purge?destination=Q}
 * (or {@code ?clientId=C&subscription=S} for a durable subscription),
 * {@code POST /api/move?from=Q[&to=D][&selector=S][&copy=true][&max=N]},
 * {@code POST /api/create?kind=QUEUE|TOPIC&name=N[&queues=N]} (a permanent destination, whatever
 * the auto-creation policy; an existing one is left as it is) and
 * {@code POST /api/delete?kind=QUEUE|TOPIC&name=N} (a permanent destination with its
 * subscriptions and messages; a temporary one belongs to its connection and is refused). Each
 * answers what it did once that is durable. Thread-safe.
 */
public final class Actions {

    /** Message queues a destination may be created with from the console. */
    private static final int MAX_QUEUES = 256;

    private final Purge purge;
    private final MessageMover mover;
    private final DestinationResolver resolver;
    private final Predicate<Destination> deleter;
    private final int defaultQueueCount;

    /** @param deleter deletes a destination durably, false when it was gone already */
    public Actions(Purge purge, MessageMover mover, DestinationResolver resolver, Predicate<Destination> deleter,
                   int defaultQueueCount) {
        this.purge = purge;
        this.mover = mover;
        this.resolver = resolver;
        this.deleter = deleter;
        this.defaultQueueCount = defaultQueueCount;
    }

    Object purge(ApiCall call) {
        String queue = call.param("destination");
        long purged = queue != null ? purge.queue(queue).join()
                : purge.durable(call.required("clientId"), call.required("subscription")).join();
        return Map.of("purged", purged);
    }

    Object move(ApiCall call) {
        long moved = mover.move(call.required("from"), call.param("to"), call.param("selector"), call.flag("copy"),
                (int) call.number("max", Integer.MAX_VALUE, 1, Integer.MAX_VALUE));
        return Map.of("moved", moved);
    }

    /** A name no client may use is a bad request here (400), not an unknown destination. */
    Object create(ApiCall call) {
        DestinationKind kind = kind(call);
        int queues = (int) call.number("queues", defaultQueueCount, 1, MAX_QUEUES);
        try {
            return Map.of("created", resolver.createPermanent(kind, call.required("name"), queues,
                    defaultQueueCount));
        } catch (BrokerException e) {
            throw e.refusal() == Refusal.UNKNOWN_DESTINATION ? new BrokerException(Refusal.BAD_REQUEST,
                    e.getMessage()) : e;
        }
    }

    Object delete(ApiCall call) {
        DestinationKind kind = kind(call);
        String name = call.required("name");
        Destination d = resolver.table().find(kind, name).orElseThrow(() -> new BrokerException(Refusal.NOT_FOUND,
                "no " + kind.name().toLowerCase(Locale.ROOT) + " named '" + name + "'"));
        if (d.temporary()) {
            throw new BrokerException(Refusal.BAD_REQUEST, "temporary destination '" + name
                    + "' belongs to its connection: it goes when that connection closes");
        }
        return Map.of("deleted", deleter.test(d));
    }

    private static DestinationKind kind(ApiCall call) {
        String kind = call.required("kind");
        try {
            return DestinationKind.valueOf(kind.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new BrokerException(Refusal.BAD_REQUEST, "parameter 'kind' must be QUEUE or TOPIC, not '" + kind
                    + "'");
        }
    }
}
