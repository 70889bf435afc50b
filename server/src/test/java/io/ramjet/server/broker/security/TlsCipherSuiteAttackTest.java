package io.ramjet.server.broker.security;

import io.ramjet.server.broker.Broker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The cipher suites a client may negotiate with the broker's TLS port: by default only
 * forward-secret AEAD ones (TLS 1.3, and ECDHE with GCM or ChaCha20 over TLS 1.2); a client
 * offering a static-RSA, CBC or SHA-1 suite is refused in the handshake; {@code tlsCipherSuites}
 * and {@code tlsProtocols} narrow the list. A raw JDK socket stands for the client, whose own
 * defaults would not offer those suites.
 */
class TlsCipherSuiteAttackTest {

    @TempDir
    Path dir;

    /** The suite the handshake settled on, offering only {@code suite} over {@code protocol}. */
    private static String handshake(Broker broker, String protocol, String suite) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new TrustingAnyCertificate()}, null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", broker.port())) {
            socket.setSoTimeout(10_000);
            socket.setEnabledProtocols(new String[] {protocol});
            socket.setEnabledCipherSuites(new String[] {suite});
            socket.startHandshake();
            return socket.getSession().getCipherSuite();
        }
    }

    private static void refused(Broker broker, String protocol, String suite) {
        IOException refused = assertThrows(IOException.class, () -> handshake(broker, protocol, suite), suite);
        if (!(refused instanceof SSLHandshakeException) && !(refused instanceof java.net.SocketException)
                && !(refused instanceof java.io.EOFException)) {
            throw new AssertionError(suite + " failed otherwise than in the handshake", refused);
        }
    }

    @Test
    void onlyForwardSecretAeadSuitesAreAcceptedByDefault() throws Exception {
        try (Broker broker = new SecuredDeployment(dir).start()) {
            for (String weak : List.of("TLS_RSA_WITH_AES_128_GCM_SHA256", "TLS_RSA_WITH_AES_128_CBC_SHA",
                    "TLS_RSA_WITH_AES_256_CBC_SHA", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
                    "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384")) {
                refused(broker, "TLSv1.2", weak);
            }
            for (String strong : List.of("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
                    "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256")) {
                assertEquals(strong, handshake(broker, "TLSv1.2", strong));
            }
            assertEquals("TLS_AES_128_GCM_SHA256", handshake(broker, "TLSv1.3", "TLS_AES_128_GCM_SHA256"));
        }
    }

    @Test
    void keysNarrowTheProtocolsAndSuites() throws Exception {
        try (Broker broker = new SecuredDeployment(dir, "tlsProtocols=TLSv1.3",
                "tlsCipherSuites=TLS_AES_256_GCM_SHA384").start()) {
            refused(broker, "TLSv1.2", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384");
            refused(broker, "TLSv1.3", "TLS_AES_128_GCM_SHA256");
            assertEquals("TLS_AES_256_GCM_SHA384", handshake(broker, "TLSv1.3", "TLS_AES_256_GCM_SHA384"));
        }
    }
}
