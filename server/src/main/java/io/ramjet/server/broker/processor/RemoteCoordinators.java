package io.ramjet.server.broker.processor;

import io.ramjet.model.TxState;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.TxQueryRequest;
import io.ramjet.protocol.command.TxStateResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.server.broker.transaction.Coordinators;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The coordinators of transactions, asked with TX_QUERY over a client connection of this broker's
 * own. Each query first introduces this broker to the coordinator as a member of the cluster (a
 * query is rare, and the connection may be new), since a coordinator answers members only.
 */
public final class RemoteCoordinators implements Coordinators {

    /** How this broker proves its membership to the broker at an address. */
    @FunctionalInterface
    public interface Introduction {
        CompletableFuture<Void> to(String address, Duration timeout);
    }

    private final RemotingClient client;
    private final Introduction introduction;

    public RemoteCoordinators(RemotingClient client, Introduction introduction) {
        this.client = client;
        this.introduction = introduction;
    }

    @Override
    public CompletableFuture<TxState> query(String address, long id, Duration timeout) {
        return introduction.to(address, timeout).thenCompose(done -> client.invoke(address,
                        Frame.request(CommandCode.TX_QUERY, new TxQueryRequest(id)), timeout))
                .thenApply(response -> response.header(TxStateResponse.class).state());
    }
}
