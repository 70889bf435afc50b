package io.ramjet.protocol.remoting.tls;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;

/**
 * How a client connects with TLS: whom it trusts, what it presents when the server asks for a
 * certificate, and whether the server's certificate must name the host the client connected to
 * (on unless turned off, which only a test should do). Immutable.
 *
 * @param trust          the CAs trusted to sign servers' certificates; null for the JDK's default CAs
 * @param key            presented for mutual TLS; null for none
 * @param verifyHostname whether the server's certificate must match the host connected to
 * @param policy         the protocols and cipher suites offered
 */
public record ClientTls(TrustMaterial trust, KeyMaterial key, boolean verifyHostname, TlsPolicy policy) {

    public ClientTls {
        if (policy == null) {
            throw new IllegalArgumentException("policy");
        }
    }

    /** With the {@link TlsPolicy#DEFAULT} protocols and suites. */
    public ClientTls(TrustMaterial trust, KeyMaterial key, boolean verifyHostname) {
        this(trust, key, verifyHostname, TlsPolicy.DEFAULT);
    }

    /** Trusting the JDK's default CAs, no client certificate, host names verified. */
    public static ClientTls defaults() {
        return new ClientTls(null, null, true);
    }

    public ClientTls withTrust(TrustMaterial newTrust) {
        return new ClientTls(newTrust, key, verifyHostname, policy);
    }

    public ClientTls withKey(KeyMaterial newKey) {
        return new ClientTls(trust, newKey, verifyHostname, policy);
    }

    public ClientTls withPolicy(TlsPolicy newPolicy) {
        return new ClientTls(trust, key, verifyHostname, newPolicy);
    }

    /** Accepts a trusted certificate whatever host it names: for tests on certificates made for another host. */
    public ClientTls withoutHostnameVerification() {
        return new ClientTls(trust, key, false, policy);
    }

    /**
     * A Netty client context for these settings.
     *
     * @throws IllegalArgumentException or {@link java.io.UncheckedIOException} naming the file
     *                                  that cannot be read or used
     */
    public SslContext newContext() {
        SslContextBuilder builder = SslContextBuilder.forClient()
                .endpointIdentificationAlgorithm(verifyHostname ? "HTTPS" : null);
        if (trust != null) {
            trust.trustedBy(builder);
        }
        if (key != null) {
            key.presentedBy(builder);
        }
        return TlsContexts.build(builder, policy);
    }
}
