package io.ramjet.server.broker.processor;

import io.ramjet.model.TxState;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.TxCheckRequest;
import io.ramjet.protocol.command.TxStateResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.ConnectionListener;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.security.Identity;
import io.ramjet.server.broker.session.ClientSession;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A transport connection as the domain's {@link ClientSession}: equal to every other adapter of
 * the same connection, so a session made for each request still names one client. The
 * check-back is a TX_CHECK request on the connection.
 */
public record ConnectionSession(RemotingConnection connection) implements ClientSession {

    /** A listener telling {@code onClosed} about each connection that closes, as a session. */
    public static ConnectionListener onClose(Consumer<ClientSession> onClosed) {
        return new ConnectionListener() {
            @Override
            public void closed(RemotingConnection closed) {
                onClosed.accept(new ConnectionSession(closed));
            }
        };
    }

    @Override
    public String user() {
        Identity identity = Authentication.identityOf(connection);
        return identity == null || identity.user() == null ? "" : identity.user();
    }

    @Override
    public boolean isOpen() {
        return connection.isActive();
    }

    @Override
    public CompletableFuture<TxState> checkBack(long transactionId, Duration timeout) {
        return connection.invoke(Frame.request(CommandCode.TX_CHECK, new TxCheckRequest(transactionId)), timeout)
                .handle((response, failure) ->
                        failure != null ? null : response.header(TxStateResponse.class).state());
    }

    @Override
    public String toString() {
        return connection.toString();
    }
}
