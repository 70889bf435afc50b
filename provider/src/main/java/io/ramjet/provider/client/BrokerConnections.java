package io.ramjet.provider.client;

import io.ramjet.protocol.command.AuthenticateRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.ConnectionListener;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingConnection;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * The life of the client's broker connections: each new one authenticates with the client's
 * credentials and claims the held client id ({@link ClientIdClaims}) before anything else is sent
 * on it; a lost one is told to the listener unless the client closed; closing the client closes
 * them all. NameServer connections skip the handshake and are not told.
 */
final class BrokerConnections {

    private final RemotingClient remoting;
    private final NameServerClient nameServers;
    private final Routes routes;
    private final Duration timeout;
    /** Sent to every broker before anything else; null for an anonymous connection. */
    private final Credentials credentials;
    private final ClientIdClaims clientIds;
    private volatile boolean closed;

    /** Handshakes every connection {@code remoting} opens from now on. */
    BrokerConnections(RemotingClient remoting, NameServerClient nameServers, Routes routes, Duration timeout,
                      Credentials credentials) {
        this.remoting = remoting;
        this.nameServers = nameServers;
        this.routes = routes;
        this.timeout = timeout;
        this.credentials = credentials;
        this.clientIds = new ClientIdClaims(remoting, routes, timeout, () -> closed);
        remoting.setHandshake(this::handshake);
    }

    void onBrokerConnectionLost(BiConsumer<String, String> listener) {
        remoting.addConnectionListener(new ConnectionListener() {
            @Override
            public void closed(RemotingConnection connection) {
                String address = connection.remoteAddress();
                if (!closed && !nameServers.addresses().contains(address)) {
                    listener.accept(address, connection.closeReason());
                }
            }
        });
    }

    /**
     * Claims the client id on every live master, as {@link ClientIdClaims#claim} says; a broker
     * this client connects to later hears of the claim in the connection's handshake.
     */
    CompletableFuture<Void> claimClientId(String clientId) {
        return RemotingFailures.translated(clientIds.claim(clientId));
    }

    /** Gives the client id back on every live master; failures are ignored (closing the transport releases it too). */
    CompletableFuture<Void> releaseClientId(String clientId) {
        return RemotingFailures.translated(clientIds.release(clientId));
    }

    /**
     * What a new broker connection does before this client uses it: authenticate with the
     * connection's credentials (a refusal closes it and fails what was to be sent on it), then
     * claim the held client id, if any. Both are answered before any other request is sent, so the
     * broker, whose processors run on a pool, sees them first. NameServer connections skip it.
     */
    private CompletionStage<Void> handshake(String address, RemotingConnection connection) {
        if (closed || nameServers.addresses().contains(address)) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> authenticated = credentials == null ? CompletableFuture.completedFuture(null)
                : connection.invoke(Frame.request(CommandCode.AUTHENTICATE,
                        new AuthenticateRequest(credentials.user(), credentials.password())), timeout)
                .thenAccept(Frames::release);
        return authenticated.thenCompose(done -> clientIds.claimOn(address, connection));
    }

    /**
     * Connects to every live master, waiting for one to register as {@link Routes#firstMaster()} does,
     * which authenticates each connection; fails with {@code AUTHENTICATION_FAILED} when a broker
     * refuses the credentials.
     */
    CompletableFuture<Void> authenticate() {
        return RemotingFailures.translated(routes.firstMaster().thenCompose(any -> routes.masters())
                .thenCompose(brokers -> CompletableFuture.allOf(brokers.stream()
                        .map(b -> remoting.connect(b.address())).toArray(CompletableFuture[]::new))));
    }

    /** Closes every connection; a connection lost from now on is not told. */
    void close() {
        closed = true;
        remoting.close();
    }
}
