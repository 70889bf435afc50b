package io.ramjet.protocol.remoting.tls;

import io.netty.handler.ssl.SslContextBuilder;

import javax.net.ssl.KeyManagerFactory;
import java.nio.file.Path;

/**
 * A private key and its certificate chain, which a TLS endpoint presents: either two PEM files
 * (the chain, then a PKCS#8 key, encrypted when a password is given) or a key store (PKCS#12 or
 * JKS, its type read from the file, the password opening the store and its key). Immutable; its
 * {@link #toString()} never shows the password.
 *
 * @param certificateChain PEM certificate chain, leaf first; null for a key store
 * @param privateKey       PEM PKCS#8 private key; null for a key store
 * @param keyStore         PKCS#12 or JKS key store; null for PEM files
 * @param password         of the key store, or of an encrypted PEM key; null when there is none
 */
public record KeyMaterial(Path certificateChain, Path privateKey, Path keyStore, String password) {

    public KeyMaterial {
        boolean pem = certificateChain != null && privateKey != null;
        boolean store = keyStore != null;
        if (pem == store || (!pem && (certificateChain != null || privateKey != null))) {
            throw new IllegalArgumentException("TLS key material is a certificate chain with its private key"
                    + " (PEM), or a key store, not both and not a part of one");
        }
    }

    public static KeyMaterial pem(Path certificateChain, Path privateKey, String keyPassword) {
        return new KeyMaterial(certificateChain, privateKey, null, keyPassword);
    }

    public static KeyMaterial keyStore(Path keyStore, String password) {
        return new KeyMaterial(null, null, keyStore, password);
    }

    /** A server context builder presenting this key. */
    SslContextBuilder forServer() {
        return keyStore != null ? SslContextBuilder.forServer(keyManagers())
                : SslContextBuilder.forServer(certificateChain.toFile(), privateKey.toFile(), password);
    }

    /** Makes a client context present this key (mutual TLS). */
    SslContextBuilder presentedBy(SslContextBuilder client) {
        return keyStore != null ? client.keyManager(keyManagers())
                : client.keyManager(certificateChain.toFile(), privateKey.toFile(), password);
    }

    private KeyManagerFactory keyManagers() {
        char[] secret = password == null ? new char[0] : password.toCharArray();
        return TlsContexts.withStore(keyStore, secret, "key store", store -> {
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, secret);
            return factory;
        });
    }

    @Override
    public String toString() {
        return keyStore != null ? "KeyMaterial[keyStore=" + keyStore + "]"
                : "KeyMaterial[certificateChain=" + certificateChain + ", privateKey=" + privateKey + "]";
    }
}
