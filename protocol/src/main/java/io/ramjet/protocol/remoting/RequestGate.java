package io.ramjet.protocol.remoting;

import io.ramjet.protocol.frame.Frame;

/**
 * Decides, before a request reaches its processor, whether the connection may send it at all:
 * the one place a server refuses every command of a connection that has not authenticated.
 * Called on the connection's I/O thread for every request except heartbeats: must be quick and
 * must not block.
 */
@FunctionalInterface
public interface RequestGate {

    /** Lets every request through. */
    RequestGate OPEN = (connection, request) -> {
    };

    /**
     * Returns when the request may go to its processor; throws to refuse it, and the requester
     * gets the exception's status and message as an error response (a refused one-way frame is
     * dropped).
     */
    void admit(RemotingConnection connection, Frame request) throws RemotingCommandException;
}
