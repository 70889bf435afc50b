package io.ramjet.server.broker.transaction;

import io.ramjet.server.broker.session.ClientSession;

/**
 * Who a delivered message belongs to, as the broker's consumer registry knows it: a transaction
 * takes over only messages delivered to consumers attached over a connection of the user that
 * prepares or ends it (one XA branch may span several connections of its user).
 */
public interface DeliveryOwners {

    /** Whether {@code consumer} is attached (or closed with messages unsettled) over {@code session}. */
    boolean attachedOver(long consumer, ClientSession session);

    /** Whether {@code consumer} is attached (or closed with messages unsettled) over a connection of {@code session}'s user. */
    boolean attachedAs(long consumer, ClientSession session);

    /** A session settled {@code count} messages of {@code consumer}. */
    void settled(long consumer, int count);
}
