package io.ramjet.controller;

/**
 * The outcome of a controller command. The codes are controller's own range on the wire
 * (170-179), so that a broker relaying them over Ramjet remoting never collides with
 * {@code ErrorStatus}.
 */
public enum ControllerStatus {
    OK(170),
    /** No broker of that group ever registered. */
    UNKNOWN_GROUP(171),
    /** The group exists; that broker id never registered in it. */
    UNKNOWN_BROKER(172),
    /** Only the group's current master may alter its in-sync set. */
    NOT_MASTER(173),
    /** The command carried an epoch the group has left: a newer master exists. */
    STALE_EPOCH(174),
    /** The master is gone and no live broker may replace it (none in sync, no unclean election). */
    NO_CANDIDATE(175),
    /** An election was asked for while the master still heartbeats: nothing changed. */
    MASTER_ALIVE(176),
    /** An in-sync set that leaves out the master or names a broker not in the group. */
    INVALID_SYNC_SET(177);

    private final int code;

    ControllerStatus(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static ControllerStatus ofCode(int code) {
        for (ControllerStatus status : values()) {
            if (status.code == code) {
                return status;
            }
        }
        throw new IllegalArgumentException("unknown controller status " + code);
    }
}
