package io.ramjet.provider.destination;

import jakarta.jms.JMSException;

/** The connection that created a temporary destination, and so the one that may delete it. */
@FunctionalInterface
public interface TemporaryDestinationOwner {
    void delete(RamjetDestination temporary) throws JMSException;
}
