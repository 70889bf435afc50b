package io.ramjet.bench.workload;

/** How many messages a timed phase moved and how long it took. */
public record Rate(long messages, long nanos) {

    public Rate {
        if (messages < 0 || nanos <= 0) {
            throw new IllegalArgumentException("a rate needs messages >= 0 and a positive duration, got "
                    + messages + " in " + nanos + " ns");
        }
    }

    /** Messages per second. */
    public double perSecond() {
        return messages / (nanos / 1e9);
    }
}
