package io.ramjet.protocol.remoting.tls;

import io.netty.handler.ssl.SslContextBuilder;

import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The certificates a TLS endpoint trusts to sign its peer's: a PEM file of CA certificates, or a
 * trust store (PKCS#12 or JKS), told apart by the file's content. Immutable; its
 * {@link #toString()} never shows the password.
 *
 * @param file     PEM certificates or a trust store
 * @param password of a trust store that has one; null otherwise
 */
public record TrustMaterial(Path file, String password) {

    private static final byte[] PEM_START = "-----BEGIN".getBytes(StandardCharsets.US_ASCII);

    public TrustMaterial {
        if (file == null) {
            throw new IllegalArgumentException("a TLS trust store needs a file");
        }
    }

    /** Makes a context trust these certificates, and only them. */
    SslContextBuilder trustedBy(SslContextBuilder builder) {
        return isPem() ? builder.trustManager(file.toFile()) : builder.trustManager(trustManagers());
    }

    private boolean isPem() {
        try (InputStream in = Files.newInputStream(file)) {
            return Arrays.equals(in.readNBytes(PEM_START.length), PEM_START);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the TLS trust store " + file, e);
        }
    }

    private TrustManagerFactory trustManagers() {
        return TlsContexts.withStore(file, password == null ? null : password.toCharArray(), "trust store", store -> {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            return factory;
        });
    }

    @Override
    public String toString() {
        return "TrustMaterial[" + file + "]";
    }
}
