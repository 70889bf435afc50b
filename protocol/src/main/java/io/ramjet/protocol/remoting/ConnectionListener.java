package io.ramjet.protocol.remoting;

/**
 * Told when a connection opens and closes, for any reason. Called on the connection's I/O
 * thread: do not block.
 */
public interface ConnectionListener {

    default void connected(RemotingConnection connection) {
    }

    default void closed(RemotingConnection connection) {
    }
}
