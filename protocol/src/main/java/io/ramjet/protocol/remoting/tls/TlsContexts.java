package io.ramjet.protocol.remoting.tls;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;

import javax.net.ssl.SSLException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

/**
 * What every Ramjet TLS context shares: the JDK's engine (no native library) and a
 * {@link TlsPolicy} (by default TLSv1.3/TLSv1.2 with forward-secret AEAD suites only); and how a
 * key or trust store file is opened, its failures naming the file.
 */
final class TlsContexts {

    /** What is made of an opened store. */
    @FunctionalInterface
    interface StoreUse<T> {
        T apply(KeyStore store) throws GeneralSecurityException;
    }

    private TlsContexts() {
    }

    static SslContext build(SslContextBuilder builder, TlsPolicy policy) {
        try {
            return builder.sslProvider(SslProvider.JDK).protocols(policy.protocols())
                    .ciphers(policy.cipherSuites(), SupportedCipherSuiteFilter.INSTANCE).build();
        } catch (SSLException e) {
            throw new IllegalArgumentException("TLS settings not usable: " + e.getMessage(), e);
        }
    }

    /**
     * Opens a PKCS#12 or JKS store (its type read from the file) and makes something of it.
     *
     * @param what "key store" or "trust store", for the failure's message
     * @throws UncheckedIOException     when the file cannot be read
     * @throws IllegalArgumentException when it is no store, the password is wrong, or the use fails
     */
    static <T> T withStore(Path file, char[] password, String what, StoreUse<T> use) {
        try {
            return use.apply(KeyStore.getInstance(file.toFile(), password));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the TLS " + what + " " + file, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot use the TLS " + what + " " + file + ": " + e.getMessage(), e);
        }
    }
}
