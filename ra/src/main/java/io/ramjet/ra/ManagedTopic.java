package io.ramjet.ra;

import jakarta.jms.Topic;

/** A topic configured in the application server as an administered object. */
public class ManagedTopic extends ManagedDestination implements Topic {

    private static final long serialVersionUID = 1L;

    @Override
    public String getTopicName() {
        return getName();
    }

    @Override
    public String toString() {
        return "topic " + getName();
    }
}
