package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * Response header of {@link CommandCode#CLUSTER_CHALLENGE}: random bytes the answering broker
 * chose for this connection, which the asking broker's proof must cover (so a proof captured on
 * one connection proves nothing on another).
 *
 * @param challenge the random bytes, Base64
 */
public record ClusterChallenge(String challenge) {

    public ClusterChallenge {
        Objects.requireNonNull(challenge, "challenge");
    }
}
