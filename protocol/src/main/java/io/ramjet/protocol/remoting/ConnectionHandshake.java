package io.ramjet.protocol.remoting;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What a {@link RemotingClient} does on each connection it opens before handing it out: no
 * request of the client's callers goes on the connection until the returned stage completes, so
 * the handshake's requests (authentication, say) reach the server first. A failed stage closes
 * the connection and fails the callers' requests with its failure.
 *
 * <p>Called on the connection's I/O thread: send with {@link RemotingConnection#invoke} on the
 * connection given, never through the client (that would wait for this very handshake), and do
 * not block.
 */
@FunctionalInterface
public interface ConnectionHandshake {

    /** Hands every connection out as soon as it is open. */
    ConnectionHandshake NONE = (address, connection) -> CompletableFuture.completedFuture(null);

    /** @param address the address the connection was opened to, as the caller of the client named it */
    CompletionStage<Void> perform(String address, RemotingConnection connection);
}
