package io.ramjet.provider.message;

import jakarta.jms.JMSException;

/** What {@code Message.acknowledge()} calls: the consuming session, in CLIENT_ACKNOWLEDGE mode. */
@FunctionalInterface
public interface Acknowledger {
    void acknowledge() throws JMSException;
}
