package io.ramjet.protocol.remoting;

/**
 * Decides where one request is processed, knowing its connection: called on the connection's
 * I/O thread, it may run {@code processing} there and then, or hand it to another thread. For
 * commands whose cheap common case is worth the hand-off it saves (see
 * {@link ProcessorTable#registerWithConnection}).
 */
@FunctionalInterface
public interface RequestExecutor {

    /** @throws java.util.concurrent.RejectedExecutionException when it takes no more work; the request is answered BUSY */
    void execute(RemotingConnection connection, Runnable processing);
}
