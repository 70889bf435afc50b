package io.ramjet.server.broker.console;

import io.ramjet.server.broker.admin.MessageMover;
import io.ramjet.server.broker.admin.Purge;

import java.util.Map;

/**
 * The console's actions, as the operator's commands do them: {@code POST /api/purge?destination=Q}
 * (or {@code ?clientId=C&subscription=S} for a durable subscription) and
 * {@code POST /api/move?from=Q[&to=D][&selector=S][&copy=true][&max=N]}. Each answers how many
 * messages it purged or moved once that is durable. Thread-safe.
 */
public final class Actions {

    private final Purge purge;
    private final MessageMover mover;

    public Actions(Purge purge, MessageMover mover) {
        this.purge = purge;
        this.mover = mover;
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
}
