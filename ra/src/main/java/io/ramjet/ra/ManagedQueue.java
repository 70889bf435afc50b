package io.ramjet.ra;

import jakarta.jms.Queue;

/** A queue configured in the application server as an administered object. */
public class ManagedQueue extends ManagedDestination implements Queue {

    private static final long serialVersionUID = 1L;

    @Override
    public String getQueueName() {
        return getName();
    }

    @Override
    public String toString() {
        return "queue " + getName();
    }
}
