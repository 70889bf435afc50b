package io.ramjet.model;

/** What a JMS destination is; a broker-side topic has exactly one kind. */
public enum DestinationKind {
    QUEUE,
    TOPIC
}
