package io.ramjet.provider.client;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** A consumer's running feed from its brokers, from {@link RamjetClient#consume}. */
public interface ConsumerFeed {

    /**
     * Stops feeding, without waiting for a pull in progress (it is answered when the consumer
     * detaches), and returns the consumer as attached to each broker, to detach it there.
     */
    List<ConsumerInfo> stop();

    /**
     * Asks every broker at once for what it has for the consumer, as far as the prefetch has
     * room: a feed with a pull out already (held until messages come) asks nothing more; the
     * others send a pull the broker answers without holding it. Completes once those answers
     * are {@link FeedSink#accept taken in}, or at once where there is nothing to ask.
     */
    CompletableFuture<Void> pullNow();

    /** How each broker's feed stands now, for a diagnosis: attachment, pulls out; one line per broker. */
    String describe();
}
