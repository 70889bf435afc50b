package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * A broker's proof that it holds the NameServer secret, carried by a registration or an
 * unregistration: an HMAC-SHA256, keyed with the secret, over the request's fields, this
 * timestamp and this nonce (see {@code io.ramjet.server.remoting.BrokerProofs}). The
 * secret itself never travels. A NameServer accepts a proof only within a window around its
 * own clock and only once.
 *
 * @param timestampMillis when the broker signed, in epoch milliseconds
 * @param nonce           random and unique per request, so a captured request cannot be replayed
 * @param mac             the HMAC, Base64
 */
public record BrokerProof(long timestampMillis, String nonce, String mac) {

    public BrokerProof {
        Objects.requireNonNull(nonce, "nonce");
        Objects.requireNonNull(mac, "mac");
    }
}
