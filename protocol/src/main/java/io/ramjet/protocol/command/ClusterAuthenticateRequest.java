package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * Header of {@link CommandCode#CLUSTER_AUTHENTICATE}: the asking broker names itself and proves
 * it holds the cluster secret by an HMAC-SHA256, keyed with the secret, over the challenge the
 * answering broker sent on this connection, its own nonce and its name (see
 * {@code io.ramjet.server.cluster.ClusterProof}). The secret never travels.
 *
 * @param brokerName the asking broker's group
 * @param brokerId   its id in the group
 * @param nonce      random bytes of its own, Base64, which the answer's MAC must cover
 * @param mac        the HMAC, Base64
 */
public record ClusterAuthenticateRequest(String brokerName, long brokerId, String nonce, String mac) {

    public ClusterAuthenticateRequest {
        Objects.requireNonNull(brokerName, "brokerName");
        Objects.requireNonNull(nonce, "nonce");
        Objects.requireNonNull(mac, "mac");
    }
}
