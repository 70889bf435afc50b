package io.ramjet.server.broker.transaction;

import io.ramjet.server.broker.session.ClientSession;

/**
 * Who a delivered message belongs to, as the broker's consumer registry knows it: a transaction
 * takes over only messages delivered to consumers attached over the session that ends it.
 */
public interface DeliveryOwners {

    /** Whether {@code consumer} is attached (or closed with messages unsettled) over {@code session}. */
    boolean attachedOver(long consumer, ClientSession session);

    /** A session settled {@code count} messages of {@code consumer}. */
    void settled(long consumer, int count);
}
