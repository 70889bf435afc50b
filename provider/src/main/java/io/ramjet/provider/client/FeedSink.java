package io.ramjet.provider.client;

import java.util.List;
import java.util.concurrent.locks.Lock;

/** Where a consumer's feed delivers, and the prefetch state it obeys: the consumer's side of {@link RamjetClient#consume}. */
public interface FeedSink {

    /** How many more messages the prefetch takes now. */
    int room();

    /** Waits, at most {@code millis}, for the prefetch to have room. */
    void awaitRoom(long millis) throws InterruptedException;

    /** Held while a pull is in progress and its messages are taken in: a pause takes the other side. */
    Lock intake();

    /** The messages of one pull, taken in together (so priority orders them all). */
    void accept(List<Delivery> deliveries);

    /** The attachment's deliveries are gone (the broker restarted or dropped the connection). */
    void attachmentLost(ConsumerInfo attachment);

    /** A pull or subscribe failed for a reason other than the broker going away. */
    void failed(String address, ClientException failure);
}
