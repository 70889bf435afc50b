package io.ramjet.server.broker.processor;

import io.netty.util.AttributeKey;
import io.ramjet.protocol.command.AuthenticateRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.protocol.remoting.RequestGate;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.security.CertificateUsers;
import io.ramjet.server.broker.security.Users;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * AUTHENTICATE, and the gate in front of every other command. A connection that authenticates
 * acts for that user for as long as it lives (a channel attribute, gone with the channel); one
 * that fails is refused ({@link Refusal#NOT_AUTHENTICATED}), the same answer for an
 * unknown user and a wrong password, and the failure is logged once, without the password.
 * When anonymous connections are not allowed, every command but AUTHENTICATE from a connection
 * that has not authenticated is refused with that status. A connection whose verified TLS client
 * certificate {@link CertificateUsers} maps to a user acts for that user without AUTHENTICATE.
 * Thread-safe.
 */
public final class Authentication implements RequestGate {

    private static final Logger LOG = LoggerFactory.getLogger(Authentication.class);
    private static final AttributeKey<String> USER = AttributeKey.valueOf("ramjet.user");

    private final Users users;
    private final boolean allowAnonymous;
    private final CertificateUsers certificateUsers;

    public Authentication(Users users, boolean allowAnonymous) {
        this(users, allowAnonymous, CertificateUsers.none());
    }

    public Authentication(Users users, boolean allowAnonymous, CertificateUsers certificateUsers) {
        this.users = users;
        this.allowAnonymous = allowAnonymous;
        this.certificateUsers = certificateUsers;
    }

    public Frame authenticate(RemotingConnection connection, Frame request) {
        AuthenticateRequest credentials = request.header(AuthenticateRequest.class);
        if (!users.verify(credentials.user(), credentials.password().toCharArray())) {
            LOG.warn("{}: authentication of user '{}' failed", connection.remoteAddress(), credentials.user());
            throw new BrokerException(Refusal.NOT_AUTHENTICATED,
                    "user name or password not accepted");
        }
        connection.channel().attr(USER).set(credentials.user());
        return request.reply(null);
    }

    /** The user the connection authenticated as, or null. */
    public static String userOf(RemotingConnection connection) {
        return connection.channel().attr(USER).get();
    }

    @Override
    public void admit(RemotingConnection connection, Frame request) throws RemotingCommandException {
        if (!certificateUsers.isEmpty() && userOf(connection) == null) {
            connection.peerPrincipal().flatMap(certificateUsers::userOf)
                    .ifPresent(user -> connection.channel().attr(USER).set(user));
        }
        if (allowAnonymous || request.code() == CommandCode.AUTHENTICATE || userOf(connection) != null) {
            return;
        }
        throw new RemotingCommandException(Refusals.status(Refusal.NOT_AUTHENTICATED),
                "this broker admits authenticated connections only: authenticate before "
                        + CommandCode.name(request.code()));
    }
}
