package io.ramjet.protocol.remoting.tls;

import java.util.List;

/**
 * Which TLS protocol versions and cipher suites a context offers and accepts. The default is
 * TLSv1.3 and TLSv1.2 with forward-secret AEAD suites only: TLS 1.3's three, and for TLS 1.2
 * ECDHE key exchange with AES-GCM or ChaCha20-Poly1305 (no static-RSA key exchange, no CBC, no
 * SHA-1 MAC). Suites the JDK does not support are left out silently; a list of which none is
 * supported makes the context fail to build. Immutable.
 *
 * @param protocols    protocol names as the JDK spells them ({@code TLSv1.3}, {@code TLSv1.2})
 * @param cipherSuites cipher suite names as the JDK spells them (IANA names)
 */
public record TlsPolicy(List<String> protocols, List<String> cipherSuites) {

    public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
    public static final List<String> DEFAULT_CIPHER_SUITES = List.of(
            "TLS_AES_256_GCM_SHA384",
            "TLS_AES_128_GCM_SHA256",
            "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");
    public static final TlsPolicy DEFAULT = new TlsPolicy(DEFAULT_PROTOCOLS, DEFAULT_CIPHER_SUITES);

    public TlsPolicy {
        protocols = List.copyOf(protocols);
        cipherSuites = List.copyOf(cipherSuites);
        if (protocols.isEmpty()) {
            throw new IllegalArgumentException("no TLS protocol to offer");
        }
        if (cipherSuites.isEmpty()) {
            throw new IllegalArgumentException("no TLS cipher suite to offer");
        }
    }

    /** The same with the given protocols, or the default ones for null or empty. */
    public TlsPolicy withProtocols(List<String> newProtocols) {
        return new TlsPolicy(newProtocols == null || newProtocols.isEmpty() ? DEFAULT_PROTOCOLS : newProtocols,
                cipherSuites);
    }

    /** The same with the given suites, or the default ones for null or empty. */
    public TlsPolicy withCipherSuites(List<String> newSuites) {
        return new TlsPolicy(protocols, newSuites == null || newSuites.isEmpty() ? DEFAULT_CIPHER_SUITES : newSuites);
    }
}
