package io.ramjet.controller;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test key material made at test time by the JDK's {@code keytool}, run as a process: a CA, and
 * certificates it signs, each as a PKCS#12 key store (key, chain) and as PEM files (chain, PKCS#8
 * key). Files live in the directory given; every store's password is {@link #PASSWORD}.
 */
final class TestCertificates {

    public static final String PASSWORD = "changeit";

    private final Path dir;

    /** One signed identity: its key store and the same as PEM files. */
    public record Identity(Path keyStore, Path certificateChain, Path privateKey) {
    }

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    /** A new CA in {@code dir}, its certificate in {@link #caPem()}. */
    public static TestCertificates newCa(Path dir) {
        TestCertificates ca = new TestCertificates(dir);
        ca.keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=Ramjet Test CA", "-ext", "bc:c", "-validity", "2",
                "-keystore", ca.caStore().toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
        ca.keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca.caStore().toString(),
                "-storepass", PASSWORD, "-file", ca.caPem().toString());
        return ca;
    }

    /** The CA certificate, PEM: what clients and servers trust. */
    public Path caPem() {
        return dir.resolve("ca.pem");
    }

    private Path caStore() {
        return dir.resolve("ca.p12");
    }

    /**
     * A key pair for {@code subject} ("CN=...") signed by this CA, valid for the given subject
     * alternative names ("ip:127.0.0.1,dns:localhost"), or for none when null.
     */
    public Identity issue(String name, String subject, String subjectAltNames) {
        Path store = dir.resolve(name + ".p12");
        Path csr = dir.resolve(name + ".csr");
        Path chain = dir.resolve(name + "-chain.pem");
        Path signed = dir.resolve(name + ".pem");
        keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", subject,
                "-validity", "2", "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
        keytool("-certreq", "-alias", name, "-keystore", store.toString(), "-storepass", PASSWORD,
                "-file", csr.toString());
        List<String> sign = new ArrayList<>(List.of("-gencert", "-alias", "ca", "-keystore", caStore().toString(),
                "-storepass", PASSWORD, "-infile", csr.toString(), "-outfile", signed.toString(), "-rfc",
                "-validity", "2"));
        if (subjectAltNames != null) {
            sign.addAll(List.of("-ext", "san=" + subjectAltNames));
        }
        keytool(sign.toArray(String[]::new));
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", caPem().toString(),
                "-keystore", store.toString(), "-storepass", PASSWORD);
        keytool("-importcert", "-alias", name, "-file", signed.toString(), "-keystore", store.toString(),
                "-storepass", PASSWORD);
        Path key = dir.resolve(name + "-key.pem");
        try {
            Files.writeString(chain, Files.readString(signed) + Files.readString(caPem()));
            KeyStore keyStore = KeyStore.getInstance(store.toFile(), PASSWORD.toCharArray());
            Key privateKey = keyStore.getKey(name, PASSWORD.toCharArray());
            Files.writeString(key, pem("PRIVATE KEY", privateKey.getEncoded()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        return new Identity(store, chain, key);
    }

    /**
     * A self-signed key pair for {@code subject} in {@code dir}, valid for {@code subjectAltNames}:
     * one keytool run, for an identity no CA of the test vouches for.
     */
    static Identity selfSigned(Path dir, String name, String subject, String subjectAltNames) {
        TestCertificates self = new TestCertificates(dir);
        Path store = dir.resolve(name + ".p12");
        self.keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", subject,
                "-ext", "san=" + subjectAltNames, "-validity", "2", "-keystore", store.toString(),
                "-storetype", "PKCS12", "-storepass", PASSWORD);
        try {
            KeyStore keyStore = KeyStore.getInstance(store.toFile(), PASSWORD.toCharArray());
            Path chain = Files.writeString(dir.resolve(name + "-chain.pem"),
                    pem("CERTIFICATE", keyStore.getCertificate(name).getEncoded()));
            Path key = Files.writeString(dir.resolve(name + "-key.pem"),
                    pem("PRIVATE KEY", keyStore.getKey(name, PASSWORD.toCharArray()).getEncoded()));
            return new Identity(store, chain, key);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private void keytool(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of("-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-J-Xshare:auto"));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("keytool " + args[0] + " failed: "
                        + new String(output, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
