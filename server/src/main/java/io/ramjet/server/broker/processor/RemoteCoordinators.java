package io.ramjet.server.broker.processor;

import io.ramjet.protocol.command.AuthenticateRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.TxQueryRequest;
import io.ramjet.protocol.command.TxState;
import io.ramjet.protocol.command.TxStateResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.server.broker.transaction.Coordinators;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The coordinators of transactions, asked with TX_QUERY over a client connection of this broker's own;
 * with credentials, each query first authenticates (a query is rare, and the connection may be new),
 * so that brokers refusing anonymous connections still answer each other.
 */
public final class RemoteCoordinators implements Coordinators {

    private final RemotingClient client;
    private final AuthenticateRequest credentials;

    /** @param credentials the cluster user to authenticate as, or null to ask anonymously */
    public RemoteCoordinators(RemotingClient client, AuthenticateRequest credentials) {
        this.client = client;
        this.credentials = credentials;
    }

    @Override
    public CompletableFuture<TxState> query(String address, long id, Duration timeout) {
        CompletableFuture<Frame> authenticated = credentials == null ? CompletableFuture.completedFuture(null)
                : client.invoke(address, Frame.request(CommandCode.AUTHENTICATE, credentials), timeout);
        return authenticated.thenCompose(done -> client.invoke(address,
                        Frame.request(CommandCode.TX_QUERY, new TxQueryRequest(id)), timeout))
                .thenApply(response -> response.header(TxStateResponse.class).state());
    }
}
