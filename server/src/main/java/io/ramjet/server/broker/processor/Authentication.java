package io.ramjet.server.broker.processor;

import io.netty.util.AttributeKey;
import io.ramjet.protocol.command.AuthenticateRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.frame.FrameDecoder;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.protocol.remoting.RequestGate;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.security.Identity;
import io.ramjet.server.broker.security.Login;
import io.ramjet.server.cluster.ClusterMembership;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.security.auth.x500.X500Principal;

/**
 * AUTHENTICATE, and the gate in front of every other command. A connection that authenticates
 * acts for that user, with the roles its {@link Login} found, for as long as it lives (a channel
 * attribute, gone with the channel); one
 * that fails is refused ({@link Refusal#NOT_AUTHENTICATED}), the same answer for an
 * unknown user and a wrong password, and the failure is logged once, without the password.
 * When anonymous connections are not allowed, every command but AUTHENTICATE and the cluster
 * handshake from a connection that has neither authenticated nor proven cluster membership
 * ({@link ClusterMembership}) is refused with that status. The subject of a verified TLS client
 * certificate goes to the login with the credentials (a certificate login module may accept it).
 * Thread-safe.
 */
public final class Authentication implements RequestGate {

    private static final Logger LOG = LoggerFactory.getLogger(Authentication.class);
    private static final AttributeKey<Identity> IDENTITY = AttributeKey.valueOf("ramjet.identity");

    private final Login login;
    private final boolean allowAnonymous;

    public Authentication(Login login, boolean allowAnonymous) {
        this.login = login;
        this.allowAnonymous = allowAnonymous;
    }

    public Frame authenticate(RemotingConnection connection, Frame request) {
        AuthenticateRequest credentials = request.header(AuthenticateRequest.class);
        Identity identity = login.login(credentials.user(), credentials.password().toCharArray(),
                        connection.peerPrincipal().map(X500Principal::getName).orElse(null))
                .orElseThrow(() -> {
                    LOG.warn("{}: authentication of user '{}' failed", connection.remoteAddress(), credentials.user());
                    return new BrokerException(Refusal.NOT_AUTHENTICATED, "user name or password not accepted");
                });
        connection.channel().attr(IDENTITY).set(identity);
        // lifts the limits before login (frame length, unauthenticated connections) before the answer goes out
        connection.channel().pipeline().fireUserEventTriggered(new FrameDecoder.Authenticated(
                identity.user() == null ? "" : identity.user()));
        return request.reply(null);
    }

    /** The identity the connection authenticated as, or null. */
    public static Identity identityOf(RemotingConnection connection) {
        return connection.channel().attr(IDENTITY).get();
    }

    @Override
    public void admit(RemotingConnection connection, Frame request) throws RemotingCommandException {
        if (allowAnonymous || request.code() == CommandCode.AUTHENTICATE
                || ClusterMembership.isHandshake(request.code()) || identityOf(connection) != null
                || ClusterMembership.memberOf(connection) != null) {
            return;
        }
        throw new RemotingCommandException(Refusals.status(Refusal.NOT_AUTHENTICATED),
                "this broker admits authenticated connections only: authenticate before "
                        + CommandCode.name(request.code()));
    }
}
