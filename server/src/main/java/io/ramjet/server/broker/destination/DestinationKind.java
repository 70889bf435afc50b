package io.ramjet.server.broker.destination;

/** A JMS queue (one shared subscription) or topic (a subscription per subscriber). */
public enum DestinationKind {
    QUEUE,
    TOPIC
}
