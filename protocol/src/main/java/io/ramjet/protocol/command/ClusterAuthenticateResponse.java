package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * Response header of {@link CommandCode#CLUSTER_AUTHENTICATE}: the answering broker's own proof
 * of the cluster secret, an HMAC over the same challenge and nonce, so that the asking broker
 * knows it speaks to a member too (a slave never takes a log from an impostor).
 *
 * @param mac the HMAC, Base64
 */
public record ClusterAuthenticateResponse(String mac) {

    public ClusterAuthenticateResponse {
        Objects.requireNonNull(mac, "mac");
    }
}
