package io.ramjet.server.broker.security;

import java.security.cert.X509Certificate;
import javax.net.ssl.X509TrustManager;

/** Trusts every certificate: for tests that check TLS limits and suites, not who the broker is. */
final class TrustingAnyCertificate implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }
}
