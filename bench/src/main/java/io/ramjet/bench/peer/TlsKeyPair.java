package io.ramjet.bench.peer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed key pair for 127.0.0.1 made by the JDK's {@code keytool} for a TLS peer: the
 * broker's PKCS#12 key store and a PKCS#12 trust store holding its certificate, which the
 * clients (Ramjet's and Artemis's alike) trust. Both stores' password is {@link #PASSWORD}.
 *
 * @param keyStore   the broker's key and certificate
 * @param trustStore the certificate alone
 */
public record TlsKeyPair(Path keyStore, Path trustStore) {

    public static final String PASSWORD = "bench-tls";

    /** Makes the stores in {@code dir}. */
    public static TlsKeyPair generate(Path dir) throws IOException {
        TlsKeyPair keys = new TlsKeyPair(dir.resolve("broker.p12"), dir.resolve("trust.p12"));
        Path certificate = dir.resolve("broker.pem");
        keytool("-genkeypair", "-alias", "broker", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=127.0.0.1", "-ext", "san=ip:127.0.0.1", "-validity", "2", "-keystore", keys.keyStore.toString(),
                "-storetype", "PKCS12", "-storepass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "broker", "-keystore", keys.keyStore.toString(), "-storepass",
                PASSWORD, "-file", certificate.toString());
        keytool("-importcert", "-noprompt", "-alias", "broker", "-file", certificate.toString(), "-keystore",
                keys.trustStore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
        return keys;
    }

    private static void keytool(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("keytool " + args[0] + " failed: " + new String(output, StandardCharsets.UTF_8));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for keytool", e);
        }
    }
}
