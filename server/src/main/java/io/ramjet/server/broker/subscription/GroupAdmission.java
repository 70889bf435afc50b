package io.ramjet.server.broker.subscription;

/** Whether a consumer may take a message of a group now ({@link QueueCursor#admit}). */
public enum GroupAdmission {
    /** Not now: another consumer owns the group, or one of its messages is in flight elsewhere. */
    REFUSED,
    /** It owns the group, takes a message the owner's selector refused, or the message has no group. */
    HELD,
    /** The group is free: taking the message makes the consumer its owner. */
    NEW
}
