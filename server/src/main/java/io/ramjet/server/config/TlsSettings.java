package io.ramjet.server.config;

import io.ramjet.protocol.remoting.tls.ClientTls;
import io.ramjet.protocol.remoting.tls.KeyMaterial;
import io.ramjet.protocol.remoting.tls.ServerTls;
import io.ramjet.protocol.remoting.tls.ServerTls.ClientAuthMode;
import io.ramjet.protocol.remoting.tls.TlsPolicy;
import io.ramjet.protocol.remoting.tls.TrustMaterial;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The TLS settings of a broker or NameServer as an operator writes them: the key its port presents
 * (none: a plain port), whether it asks clients for certificates, the CAs it trusts, and whether a
 * broker's own connections (to its NameServers, to coordinator brokers) use TLS. Immutable;
 * {@link #builder()} collects it setting by setting and checks the whole.
 *
 * @param key            presented on the port, and to a server that asks the broker for a client
 *                       certificate; null for a plain port
 * @param clientAuth     whether the port asks clients for a certificate
 * @param trust          CAs trusted to sign client certificates and, for outbound connections,
 *                       servers' certificates; null: no client certificates, and the JDK's CAs outbound
 * @param outbound       whether the broker connects to its NameServers and coordinators with TLS
 * @param verifyHostname whether an outbound connection checks that the certificate names the host
 * @param policy         the protocols and cipher suites the port accepts and outbound connections offer
 */
public record TlsSettings(KeyMaterial key, ClientAuthMode clientAuth, TrustMaterial trust, boolean outbound,
                          boolean verifyHostname, TlsPolicy policy) {

    public TlsSettings {
        if (policy == null) {
            throw new IllegalArgumentException("policy");
        }
        if (clientAuth == null) {
            throw new IllegalArgumentException("tlsClientAuth");
        }
        if (key == null && clientAuth != ClientAuthMode.NONE) {
            throw new IllegalArgumentException("tlsClientAuth=" + clientAuth.name().toLowerCase(Locale.ROOT)
                    + " needs TLS on the port: tlsCertificate and tlsPrivateKey, or tlsKeyStore");
        }
        if (key != null) {
            server();
        }
    }

    /** The port's TLS, or null for a plain port. */
    public ServerTls server() {
        return key == null ? null : new ServerTls(key, clientAuth, trust, policy);
    }

    /** The broker's outbound TLS, presenting its key when it has one; null for plain connections. */
    public ClientTls client() {
        if (!outbound) {
            return null;
        }
        return new ClientTls(trust, key, verifyHostname, policy);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these settings. */
    public Builder toBuilder() {
        Builder b = new Builder();
        if (key != null) {
            b.certificate = key.certificateChain();
            b.privateKey = key.privateKey();
            b.keyStore = key.keyStore();
            b.keyPassword = key.password();
        }
        b.clientAuth = clientAuth;
        if (trust != null) {
            b.trustStore = trust.file();
            b.trustStorePassword = trust.password();
        }
        b.outbound = outbound;
        b.verifyHostname = verifyHostname;
        b.protocols = policy.protocols();
        b.cipherSuites = policy.cipherSuites();
        return b;
    }

    /** Collects {@link TlsSettings} setting by setting; {@link #build()} checks the whole. Not thread-safe. */
    public static final class Builder {
        private Path certificate;
        private Path privateKey;
        private Path keyStore;
        private String keyPassword;
        private ClientAuthMode clientAuth = ClientAuthMode.NONE;
        private Path trustStore;
        private String trustStorePassword;
        private boolean outbound;
        private boolean verifyHostname = true;
        private List<String> protocols;
        private List<String> cipherSuites;

        private Builder() {
        }

        public Builder certificate(Path pemChain) {
            this.certificate = pemChain;
            return this;
        }

        public Builder privateKey(Path pemKey) {
            this.privateKey = pemKey;
            return this;
        }

        public Builder keyStore(Path store) {
            this.keyStore = store;
            return this;
        }

        public Builder keyPassword(String password) {
            this.keyPassword = password;
            return this;
        }

        public Builder clientAuth(ClientAuthMode mode) {
            this.clientAuth = mode;
            return this;
        }

        public Builder trustStore(Path store) {
            this.trustStore = store;
            return this;
        }

        public Builder trustStorePassword(String password) {
            this.trustStorePassword = password;
            return this;
        }

        public Builder outbound(boolean tls) {
            this.outbound = tls;
            return this;
        }

        public Builder verifyHostname(boolean verify) {
            this.verifyHostname = verify;
            return this;
        }

        /** TLS protocol versions, as the JDK names them; null or empty for {@link TlsPolicy#DEFAULT_PROTOCOLS}. */
        public Builder protocols(List<String> names) {
            this.protocols = names;
            return this;
        }

        /** Cipher suites, as the JDK names them; null or empty for {@link TlsPolicy#DEFAULT_CIPHER_SUITES}. */
        public Builder cipherSuites(List<String> names) {
            this.cipherSuites = names;
            return this;
        }

        /** @throws IllegalArgumentException naming the settings that do not go together */
        public TlsSettings build() {
            KeyMaterial key = null;
            if (certificate != null || privateKey != null || keyStore != null) {
                key = new KeyMaterial(certificate, privateKey, keyStore, keyPassword);
            } else if (keyPassword != null) {
                throw new IllegalArgumentException("tlsKeyPassword without a key: set tlsKeyStore, or tlsCertificate"
                        + " and tlsPrivateKey");
            }
            if (trustStore == null && trustStorePassword != null) {
                throw new IllegalArgumentException("tlsTrustStorePassword without tlsTrustStore");
            }
            TrustMaterial trust = trustStore == null ? null : new TrustMaterial(trustStore, trustStorePassword);
            return new TlsSettings(key, clientAuth, trust, outbound, verifyHostname,
                    TlsPolicy.DEFAULT.withProtocols(protocols).withCipherSuites(cipherSuites));
        }
    }
}
