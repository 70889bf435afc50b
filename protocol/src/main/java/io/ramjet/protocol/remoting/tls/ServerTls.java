package io.ramjet.protocol.remoting.tls;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;

import java.util.Locale;

/**
 * How a server accepts TLS connections: the key it presents and whether clients must present a
 * certificate signed by {@code clientTrust} (mutual TLS). Immutable.
 *
 * @param key         the server's key and certificate chain
 * @param clientAuth  whether a client certificate is asked for
 * @param clientTrust the CAs trusted to sign client certificates; needed unless clientAuth is NONE
 *                    (then null, or the JDK's default CAs would be asked for)
 * @param policy      the protocols and cipher suites accepted
 */
public record ServerTls(KeyMaterial key, ClientAuthMode clientAuth, TrustMaterial clientTrust, TlsPolicy policy) {

    /** Whether a TLS server asks its clients for a certificate. */
    public enum ClientAuthMode {
        /** No client certificate is asked for. */
        NONE,
        /** A client may present one; a presented one must verify. */
        OPTIONAL,
        /** A client without a verified certificate is refused during the handshake. */
        REQUIRED;

        /** {@code none}, {@code optional} or {@code required}, in any case. */
        public static ClientAuthMode parse(String text) {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        }
    }

    public ServerTls {
        if (key == null) {
            throw new IllegalArgumentException("a TLS server needs its key material");
        }
        if (clientAuth == null) {
            throw new IllegalArgumentException("clientAuth");
        }
        if (clientAuth != ClientAuthMode.NONE && clientTrust == null) {
            throw new IllegalArgumentException("client certificates (" + clientAuth
                    + ") need a trust store to verify them with");
        }
        if (policy == null) {
            throw new IllegalArgumentException("policy");
        }
    }

    /** With the {@link TlsPolicy#DEFAULT} protocols and suites. */
    public ServerTls(KeyMaterial key, ClientAuthMode clientAuth, TrustMaterial clientTrust) {
        this(key, clientAuth, clientTrust, TlsPolicy.DEFAULT);
    }

    public ServerTls withPolicy(TlsPolicy newPolicy) {
        return new ServerTls(key, clientAuth, clientTrust, newPolicy);
    }

    /** Presenting the key, asking clients for no certificate. */
    public static ServerTls of(KeyMaterial key) {
        return new ServerTls(key, ClientAuthMode.NONE, null);
    }

    public ServerTls withClientAuth(ClientAuthMode mode, TrustMaterial trust) {
        return new ServerTls(key, mode, trust, policy);
    }

    /**
     * A Netty server context for these settings.
     *
     * @throws IllegalArgumentException or {@link java.io.UncheckedIOException} naming the file
     *                                  that cannot be read or used
     */
    public SslContext newContext() {
        var builder = key.forServer().clientAuth(switch (clientAuth) {
            case NONE -> ClientAuth.NONE;
            case OPTIONAL -> ClientAuth.OPTIONAL;
            case REQUIRED -> ClientAuth.REQUIRE;
        });
        if (clientTrust != null) {
            clientTrust.trustedBy(builder);
        }
        return TlsContexts.build(builder, policy);
    }
}
