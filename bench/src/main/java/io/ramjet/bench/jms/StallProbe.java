package io.ramjet.bench.jms;

import jakarta.jms.MessageConsumer;

/**
 * What a drain prints beside its stall, so that a stall explains itself: how the consumer and
 * the broker's deliveries of the destination stand at that moment. Called once per stall, on the
 * consumer's thread; never throws (a failure to ask is part of its answer).
 */
@FunctionalInterface
public interface StallProbe {

    /** For a product with nothing to ask. */
    StallProbe NONE = (destination, consumer) -> "";

    /** The state, in words, or empty. */
    String explain(String destination, MessageConsumer consumer);
}
