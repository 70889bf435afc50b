package io.ramjet.provider.client;

import java.util.List;

/** A consumer's running feed from its brokers, from {@link RamjetClient#consume}. */
public interface ConsumerFeed {

    /**
     * Stops feeding, without waiting for a pull in progress (it is answered when the consumer
     * detaches), and returns the consumer as attached to each broker, to detach it there.
     */
    List<ConsumerInfo> stop();
}
