package io.ramjet.server.broker.session;

import io.ramjet.model.TxState;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A client's connection as the broker's domain sees it: who owns a transaction, a client id, a
 * temporary destination or a consumer. Two sessions are equal when they stand for the same
 * connection; {@code toString} names the connection for the log. The processors adapt the
 * transport's connection to it.
 */
public interface ClientSession {

    /** The user the connection authenticated as, {@code ""} for an anonymous one. */
    String user();

    /** Whether the connection is still up: a session that is not may be taken over. */
    boolean isOpen();

    /**
     * Asks the client what became of a transaction of this session (the broker's check-back).
     * Completes with the client's answer, or null when none came within {@code timeout}.
     */
    CompletableFuture<TxState> checkBack(long transactionId, Duration timeout);
}
