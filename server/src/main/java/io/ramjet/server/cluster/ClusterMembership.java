package io.ramjet.server.cluster;

import io.netty.util.AttributeKey;
import io.ramjet.controller.ClusterSecret;
import io.ramjet.protocol.command.ClusterAuthenticateRequest;
import io.ramjet.protocol.command.ClusterAuthenticateResponse;
import io.ramjet.protocol.command.ClusterChallenge;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.security.Identity;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The answering side of the cluster handshake, and the check in front of every broker-to-broker
 * command. CLUSTER_CHALLENGE gives the connection fresh random bytes; CLUSTER_AUTHENTICATE
 * accepts the asking broker's MAC of them ({@link ClusterProof#member}), once per challenge, and
 * from then on the connection is that {@link ClusterMember} for as long as it lives (a channel
 * attribute). A connection that authenticated as an application user, or not at all, is never a
 * member; the one exception is a login as this broker's configured {@code clusterUser}, which
 * {@link #requireAnyMember} (transaction queries) accepts beside the secret.
 *
 * <p>Without a cluster secret no connection becomes a member. A failed proof is refused as
 * NOT_AUTHENTICATED and logged once per remote host. Thread-safe.
 */
public final class ClusterMembership {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterMembership.class);
    private static final AttributeKey<String> CHALLENGE = AttributeKey.valueOf("ramjet.cluster.challenge");
    private static final AttributeKey<ClusterMember> MEMBER = AttributeKey.valueOf("ramjet.cluster.member");
    /** Hosts already warned about, bounded so that a stranger cannot fill the memory. */
    private static final int MAX_WARNED_HOSTS = 1024;

    private final ClusterSecret secret;
    private final String clusterUser;
    private final Function<RemotingConnection, Identity> logins;
    private final Set<String> warnedHosts = ConcurrentHashMap.newKeySet();

    /**
     * @param secret      the cluster secret, or null: then no connection is a member
     * @param clusterUser the user whose login also counts as a member for {@link #requireAnyMember}, or null
     * @param logins      the identity a connection logged in as, or null
     */
    public ClusterMembership(ClusterSecret secret, String clusterUser, Function<RemotingConnection, Identity> logins) {
        this.secret = secret;
        this.clusterUser = clusterUser;
        this.logins = logins;
    }

    /** Whether this broker can accept members at all. */
    public boolean enabled() {
        return secret != null;
    }

    /** Whether {@code code} is one of the handshake's commands, which a connection may send before any login. */
    public static boolean isHandshake(short code) {
        return code == CommandCode.CLUSTER_CHALLENGE || code == CommandCode.CLUSTER_AUTHENTICATE;
    }

    /** The member a connection proved to be, or null. */
    public static ClusterMember memberOf(RemotingConnection connection) {
        return connection.channel().attr(MEMBER).get();
    }

    public Frame challenge(RemotingConnection connection, Frame request) {
        String challenge = ClusterProof.randomText();
        connection.channel().attr(CHALLENGE).set(challenge);
        return request.reply(new ClusterChallenge(challenge));
    }

    public Frame authenticate(RemotingConnection connection, Frame request) {
        ClusterAuthenticateRequest proof = request.header(ClusterAuthenticateRequest.class);
        String challenge = connection.channel().attr(CHALLENGE).getAndSet(null);
        if (secret == null || challenge == null || !ClusterProof.matches(ClusterProof.member(secret, challenge,
                proof.nonce(), proof.brokerName(), proof.brokerId()), proof.mac())) {
            warnOnce(connection, "a cluster proof as broker " + proof.brokerName() + "/" + proof.brokerId()
                    + (secret == null ? " (this broker has no cluster secret)" : challenge == null
                    ? " without a challenge" : " with a wrong MAC"));
            throw new BrokerException(Refusal.NOT_AUTHENTICATED, "cluster membership not proven");
        }
        ClusterMember member = new ClusterMember(proof.brokerName(), proof.brokerId());
        connection.channel().attr(MEMBER).set(member);
        LOG.debug("{}: proved cluster member {}", connection.remoteAddress(), member);
        return request.reply(new ClusterAuthenticateResponse(ClusterProof.answer(secret, challenge, proof.nonce())));
    }

    /**
     * Passes when the connection proved to be broker {@code brokerId} of group {@code brokerName}
     * (a replica of that group may ask only in its own name).
     *
     * @throws BrokerException NOT_AUTHENTICATED otherwise
     */
    public void requireBroker(RemotingConnection connection, String brokerName, long brokerId, short code) {
        ClusterMember member = memberOf(connection);
        if (member == null || !member.brokerName().equals(brokerName) || member.brokerId() != brokerId) {
            warnOnce(connection, CommandCode.name(code) + " as broker " + brokerName + "/" + brokerId + " from "
                    + (member == null ? "a connection that proved no cluster membership" : "member " + member));
            throw new BrokerException(Refusal.NOT_AUTHENTICATED, CommandCode.name(code) + " is for broker "
                    + brokerName + "/" + brokerId + " proven by the cluster secret only");
        }
    }

    /**
     * Passes when the connection proved the cluster secret, or logged in as the configured
     * cluster user.
     *
     * @throws BrokerException NOT_AUTHENTICATED otherwise
     */
    public void requireAnyMember(RemotingConnection connection, short code) {
        if (memberOf(connection) != null) {
            return;
        }
        Identity login = logins.apply(connection);
        if (clusterUser != null && login != null && clusterUser.equals(login.user())) {
            return;
        }
        warnOnce(connection, CommandCode.name(code) + " from a connection that is no cluster member"
                + (login == null ? "" : " (user '" + login.user() + "')"));
        throw new BrokerException(Refusal.NOT_AUTHENTICATED, CommandCode.name(code)
                + " is for members of the cluster only");
    }

    /**
     * Passes when the connection proved the cluster secret; a login, the cluster user's included,
     * never suffices.
     *
     * @throws BrokerException NOT_AUTHENTICATED otherwise
     */
    public void requireProvenMember(RemotingConnection connection, short code) {
        if (memberOf(connection) != null) {
            return;
        }
        Identity login = logins.apply(connection);
        warnOnce(connection, CommandCode.name(code) + " from a connection that proved no cluster membership"
                + (login == null ? "" : " (user '" + login.user() + "')"));
        throw new BrokerException(Refusal.NOT_AUTHENTICATED, CommandCode.name(code)
                + " is for members of the cluster proven by the cluster secret only");
    }

    private void warnOnce(RemotingConnection connection, String what) {
        String address = connection.remoteAddress();
        String host = address.lastIndexOf(':') > 0 ? address.substring(0, address.lastIndexOf(':')) : address;
        if (warnedHosts.size() < MAX_WARNED_HOSTS && warnedHosts.add(host)) {
            LOG.warn("{}: refused {} (further refusals from this host are logged at debug level)", address, what);
        } else {
            LOG.debug("{}: refused {}", address, what);
        }
    }
}
