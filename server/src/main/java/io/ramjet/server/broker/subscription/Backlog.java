package io.ramjet.server.broker.subscription;

/**
 * What a subscription still has to consume on one message queue, or summed over several.
 *
 * @param ready        never offered, or visible again
 * @param inFlight     handed to a consumer, not yet acknowledged
 * @param redelivering of the ready ones, those delivered before
 */
public record Backlog(long ready, long inFlight, long redelivering) {

    public static final Backlog NONE = new Backlog(0, 0, 0);

    public Backlog plus(Backlog other) {
        return new Backlog(ready + other.ready, inFlight + other.inFlight, redelivering + other.redelivering);
    }

    public long total() {
        return ready + inFlight;
    }
}
