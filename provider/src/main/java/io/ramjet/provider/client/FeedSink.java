package io.ramjet.provider.client;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Where a consumer's feed delivers, and the prefetch state it obeys: the consumer's side of {@link RamjetClient#consume}. */
public interface FeedSink {

    /**
     * How many messages the next pull may ask for now, 0 for none; they count against the
     * prefetch as asked for until the pull's answer is {@link #accept accepted}.
     */
    int reserve();

    /**
     * Whether a feed whose broker had nothing at its last pull may now hold a pull there for one
     * message that the prefetch does not count: false while the consumer takes nothing, or what
     * it holds and has asked for fills its prefetch.
     */
    boolean mayAwaitOne();

    /** Waits, at most {@code millis}, for the prefetch to have room. */
    void awaitRoom(long millis) throws InterruptedException;

    /** Entered by every pull before it goes out, left once its answer is taken in: a pause stops pulls there. */
    Intake intake();

    /**
     * The messages of one pull (none when it came back empty or failed), taken in together so
     * priority orders them all; ends the pull's reservation of {@code reserved} messages (none for a
     * pull that waited for one message outside the prefetch, see {@link #mayAwaitOne}).
     */
    void accept(List<Delivery> deliveries, int reserved);

    /** The attachment's deliveries are gone (the broker restarted or dropped the connection). */
    void attachmentLost(ConsumerInfo attachment);

    /**
     * Gives a live attachment up at its broker, once the session's acknowledgements on their way
     * are sent: the broker gives back what the session never consumed and keeps with it what the
     * session consumed and has still to settle.
     */
    CompletableFuture<Void> detach(ConsumerInfo attachment);

    /** A pull or subscribe failed for a reason other than the broker going away. */
    void failed(String address, ClientException failure);
}
