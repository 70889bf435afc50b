package io.ramjet.protocol.remoting.tls;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

import javax.net.ssl.SSLException;
import java.util.List;

/** What every Ramjet TLS context shares: the JDK's engine (no native library) and TLSv1.3/TLSv1.2 only. */
final class TlsContexts {

    static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    private TlsContexts() {
    }

    static SslContext build(SslContextBuilder builder) {
        try {
            return builder.sslProvider(SslProvider.JDK).protocols(PROTOCOLS).build();
        } catch (SSLException e) {
            throw new IllegalArgumentException("TLS settings not usable: " + e.getMessage(), e);
        }
    }
}
