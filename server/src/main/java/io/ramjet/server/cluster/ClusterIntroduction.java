package io.ramjet.server.cluster;

import io.ramjet.controller.ClusterSecret;
import io.ramjet.protocol.command.ClusterAuthenticateRequest;
import io.ramjet.protocol.command.ClusterAuthenticateResponse;
import io.ramjet.protocol.command.ClusterChallenge;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The asking side of the cluster handshake: proves to the broker at an address, over the
 * connection a {@link RemotingClient} holds to it, that this broker holds the cluster secret,
 * and checks that the other broker proves it in return. A proof lasts as long as that
 * connection: a caller proves again after any failure, since a new connection knows nothing of
 * the old one's proof. Thread-safe.
 */
public final class ClusterIntroduction {

    private final ClusterSecret secret;
    private final String brokerName;
    private final long brokerId;

    /** @param brokerName and {@code brokerId}: the broker this one is, as the proof names it */
    public ClusterIntroduction(ClusterSecret secret, String brokerName, long brokerId) {
        this.secret = secret;
        this.brokerName = brokerName;
        this.brokerId = brokerId;
    }

    /**
     * Completes once the broker at {@code address} accepted this broker as a member and proved
     * the secret itself; fails with the remoting failure, or with {@link NotAMemberException}
     * when its answer does not prove the secret.
     */
    public CompletableFuture<Void> to(RemotingClient client, String address, Duration timeout) {
        return client.invoke(address, Frame.request(CommandCode.CLUSTER_CHALLENGE, null), timeout)
                .thenCompose(response -> {
                    String challenge = response.header(ClusterChallenge.class).challenge();
                    String nonce = ClusterProof.randomText();
                    String mac = ClusterProof.member(secret, challenge, nonce, brokerName, brokerId);
                    return client.invoke(address, Frame.request(CommandCode.CLUSTER_AUTHENTICATE,
                                    new ClusterAuthenticateRequest(brokerName, brokerId, nonce, mac)), timeout)
                            .thenAccept(answer -> {
                                if (!ClusterProof.matches(ClusterProof.answer(secret, challenge, nonce),
                                        answer.header(ClusterAuthenticateResponse.class).mac())) {
                                    throw new NotAMemberException("the broker at " + address
                                            + " accepted this broker but did not prove the cluster secret itself");
                                }
                            });
                });
    }

    /** The other side answered as if it were a member without proving the secret. */
    public static final class NotAMemberException extends IllegalStateException {
        public NotAMemberException(String message) {
            super(message);
        }
    }
}
