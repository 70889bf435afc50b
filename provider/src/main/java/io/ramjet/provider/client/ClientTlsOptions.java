package io.ramjet.provider.client;

import io.ramjet.protocol.remoting.tls.ClientTls;
import io.ramjet.protocol.remoting.tls.KeyMaterial;
import io.ramjet.protocol.remoting.tls.TrustMaterial;
import io.ramjet.provider.url.RamjetUrl;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The TLS of a client's connections (to NameServers and brokers alike), from its URL:
 * {@code ramjets://host:9876?trustStore=/etc/ramjet/ca.pem}. This class is where the options are
 * documented.
 *
 * <table>
 *   <caption>Client TLS URL options</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #TLS}</td><td>false, true with {@code ramjets://}</td><td>TLS (TLSv1.3/1.2) on
 *       every connection</td></tr>
 *   <tr><td>{@value #TRUST_STORE}</td><td>the JDK's CAs</td><td>CA certificates trusted to sign
 *       servers' certificates: a PEM file, or a PKCS#12 or JKS store</td></tr>
 *   <tr><td>{@value #TRUST_STORE_PASSWORD}</td><td>none</td><td>password of a trust store</td></tr>
 *   <tr><td>{@value #KEY_STORE}</td><td>none</td><td>PKCS#12 or JKS store of the client's key and
 *       certificate, presented when a server asks (mutual TLS)</td></tr>
 *   <tr><td>{@value #CERTIFICATE}, {@value #PRIVATE_KEY}</td><td>none</td><td>the same as PEM
 *       files: certificate chain and PKCS#8 key</td></tr>
 *   <tr><td>{@value #KEY_PASSWORD}</td><td>none</td><td>password of the key store, or of an
 *       encrypted private key</td></tr>
 *   <tr><td>{@value #VERIFY_HOSTNAME}</td><td>true</td><td>the server's certificate must name the
 *       host connected to; {@code false} is for test certificates only</td></tr>
 * </table>
 *
 * A TLS option on a URL without TLS is refused, so that no one believes a plain connection secure.
 */
public final class ClientTlsOptions {

    public static final String TLS = "tls";
    public static final String TRUST_STORE = "trustStore";
    public static final String TRUST_STORE_PASSWORD = "trustStorePassword";
    public static final String KEY_STORE = "keyStore";
    public static final String CERTIFICATE = "certificate";
    public static final String PRIVATE_KEY = "privateKey";
    public static final String KEY_PASSWORD = "keyPassword";
    public static final String VERIFY_HOSTNAME = "verifyHostname";

    /** The option names. */
    public static final List<String> KEYS = List.of(TLS, TRUST_STORE, TRUST_STORE_PASSWORD, KEY_STORE, CERTIFICATE,
            PRIVATE_KEY, KEY_PASSWORD, VERIFY_HOSTNAME);

    private ClientTlsOptions() {
    }

    /**
     * The URL's TLS, or null for plain connections. Files are not read here but when a
     * connection is made.
     *
     * @throws IllegalArgumentException naming the option that is malformed or needs TLS on
     */
    public static ClientTls fromUrl(RamjetUrl url) {
        Map<String, String> options = url.options();
        String tlsOption = options.get(TLS);
        boolean on = url.isTlsScheme() || (tlsOption != null && bool(TLS, tlsOption));
        if (url.isTlsScheme() && tlsOption != null && !bool(TLS, tlsOption)) {
            throw new IllegalArgumentException("option tls=false contradicts " + RamjetUrl.TLS_SCHEME);
        }
        if (!on) {
            for (String key : KEYS) {
                if (!key.equals(TLS) && options.containsKey(key)) {
                    throw new IllegalArgumentException("option " + key + " needs TLS: use " + RamjetUrl.TLS_SCHEME
                            + " or tls=true");
                }
            }
            return null;
        }
        ClientTls tls = ClientTls.defaults();
        if (options.containsKey(TRUST_STORE)) {
            tls = tls.withTrust(new TrustMaterial(Path.of(options.get(TRUST_STORE)), options.get(TRUST_STORE_PASSWORD)));
        }
        String keyStore = options.get(KEY_STORE);
        String certificate = options.get(CERTIFICATE);
        String privateKey = options.get(PRIVATE_KEY);
        if (keyStore != null || certificate != null || privateKey != null) {
            tls = tls.withKey(new KeyMaterial(path(certificate), path(privateKey), path(keyStore),
                    options.get(KEY_PASSWORD)));
        }
        String verify = options.get(VERIFY_HOSTNAME);
        if (verify != null && !bool(VERIFY_HOSTNAME, verify)) {
            tls = tls.withoutHostnameVerification();
        }
        return tls;
    }

    private static Path path(String value) {
        return value == null ? null : Path.of(value);
    }

    private static boolean bool(String key, String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("option " + key + "=" + value + " is not true or false");
        };
    }
}
