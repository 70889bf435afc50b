package io.ramjet.server.namesrv;

import io.ramjet.protocol.command.BrokerProof;
import io.ramjet.protocol.command.RegisterBrokerRequest;
import io.ramjet.protocol.command.UnregisterBrokerRequest;
import io.ramjet.server.config.NameServerSecret;

import io.ramjet.server.remoting.BrokerProofs;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Decides whether a broker's request proves the NameServer secret: the MAC is the secret's, the
 * timestamp lies within {@link #WINDOW} of this clock, and the nonce was not seen within the
 * window (so a captured request cannot be replayed). Without a secret every request passes.
 *
 * <p>Thread-safe. Nonces are remembered only after their MAC checked, and only for the window,
 * so a stranger cannot fill the memory.
 */
final class BrokerAuthentication {

    /** How far a proof's timestamp may be from this clock, either way: brokers' clocks must agree this well. */
    static final Duration WINDOW = Duration.ofMinutes(5);

    private final NameServerSecret secret;
    private final Map<String, Long> seenNonces = new HashMap<>();

    /** @param secret the shared secret, or null to accept every request */
    BrokerAuthentication(NameServerSecret secret) {
        this.secret = secret;
    }

    boolean required() {
        return secret != null;
    }

    boolean admits(RegisterBrokerRequest request, long nowMillis) {
        return secret == null || BrokerProofs.signed(secret, request) && fresh(request.proof(), nowMillis);
    }

    boolean admits(UnregisterBrokerRequest request, long nowMillis) {
        return secret == null || BrokerProofs.signed(secret, request) && fresh(request.proof(), nowMillis);
    }

    private synchronized boolean fresh(BrokerProof proof, long nowMillis) {
        long window = WINDOW.toMillis();
        if (Math.abs(nowMillis - proof.timestampMillis()) > window) {
            return false;
        }
        seenNonces.values().removeIf(signedAt -> nowMillis - signedAt > window);
        return seenNonces.putIfAbsent(proof.nonce(), proof.timestampMillis()) == null;
    }
}
