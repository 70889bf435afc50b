package io.ramjet.server.broker.processor;

import io.ramjet.protocol.command.ClaimClientIdRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.session.ClientIdClaims;

/** CLAIM_CLIENT_ID: claims or releases a JMS client id for the connection ({@link ClientIdClaims}). */
public final class ClientIdProcessor {

    private final ClientIdClaims claims;

    public ClientIdProcessor(ClientIdClaims claims) {
        this.claims = claims;
    }

    public Frame claim(RemotingConnection connection, Frame request) {
        ClaimClientIdRequest claim = request.header(ClaimClientIdRequest.class);
        claims.claim(claim.clientId(), claim.release(), new ConnectionSession(connection));
        return request.reply(null);
    }
}
