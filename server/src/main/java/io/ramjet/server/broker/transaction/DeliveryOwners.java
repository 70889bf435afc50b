package io.ramjet.server.broker.transaction;

import io.ramjet.protocol.remoting.RemotingConnection;

/**
 * Who a delivered message belongs to, as the broker's consumer registry knows it: a transaction
 * takes over only messages delivered to consumers attached over the connection that ends it.
 */
public interface DeliveryOwners {

    /** Whether {@code consumer} is attached (or closed with messages unsettled) over {@code connection}. */
    boolean attachedOver(long consumer, RemotingConnection connection);

    /** A session settled {@code count} messages of {@code consumer}. */
    void settled(long consumer, int count);
}
