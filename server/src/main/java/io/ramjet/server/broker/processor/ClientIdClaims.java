package io.ramjet.server.broker.processor;

import io.ramjet.protocol.command.ClaimClientIdRequest;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.ConnectionListener;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnection;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * CLAIM_CLIENT_ID: which transport connection holds each JMS client id. A claim lasts until its
 * connection releases it or closes, for any reason; another connection asking for a held id is
 * refused with {@link ErrorStatus#CLIENT_ID_IN_USE}. A claim whose connection is no longer
 * active is taken over, so a client that vanished does not keep its id until the close is
 * noticed. Never logged or snapshotted: after a restart no connection is left and no claim
 * either. Thread-safe.
 */
public final class ClientIdClaims implements ConnectionListener {

    /** Client ids are names, not payloads: longer ones are refused. */
    static final int MAX_CLIENT_ID_CHARS = 1024;

    private final Map<String, RemotingConnection> holders = new ConcurrentHashMap<>();

    public Frame process(RemotingConnection connection, Frame request) throws RemotingCommandException {
        ClaimClientIdRequest claim = request.header(ClaimClientIdRequest.class);
        String id = claim.clientId();
        if (id.isEmpty() || id.length() > MAX_CLIENT_ID_CHARS) {
            throw new RemotingCommandException(ErrorStatus.BAD_REQUEST, "a client id must have 1 to "
                    + MAX_CLIENT_ID_CHARS + " characters");
        }
        if (claim.release()) {
            holders.remove(id, connection);
        } else {
            claim(id, connection);
        }
        return request.reply(null);
    }

    private void claim(String id, RemotingConnection connection) throws RemotingCommandException {
        RemotingConnection holder = holders.compute(id, (k, current) ->
                current == null || !current.isActive() ? connection : current);
        if (holder != connection) {
            throw new RemotingCommandException(ErrorStatus.CLIENT_ID_IN_USE, "client id '" + id
                    + "' is in use by another connection");
        }
        if (!connection.isActive()) {
            // closed while claiming: closed() may have run before the claim was recorded
            holders.remove(id, connection);
        }
    }

    /** Whether some live connection holds {@code clientId}. */
    public boolean isHeld(String clientId) {
        RemotingConnection holder = holders.get(clientId);
        return holder != null && holder.isActive();
    }

    @Override
    public void closed(RemotingConnection connection) {
        holders.values().removeIf(holder -> holder == connection);
    }
}
