package io.ramjet.server.broker.processor;

import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.TxQueryRequest;
import io.ramjet.protocol.command.TxState;
import io.ramjet.protocol.command.TxStateResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.server.broker.transaction.Coordinators;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** The coordinators of transactions, asked with TX_QUERY over a client connection of this broker's own. */
public final class RemoteCoordinators implements Coordinators {

    private final RemotingClient client;

    public RemoteCoordinators(RemotingClient client) {
        this.client = client;
    }

    @Override
    public CompletableFuture<TxState> query(String address, long id, Duration timeout) {
        return client.invoke(address, Frame.request(CommandCode.TX_QUERY, new TxQueryRequest(id)), timeout)
                .thenApply(response -> response.header(TxStateResponse.class).state());
    }
}
