package io.ramjet.controller;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The secret every member of the cluster holds, brokers and controllers alike: what proves a
 * peer is one of them. A member proves it by an HMAC-SHA256 keyed with the secret over a message
 * the other side chose or checks (a challenge, a signed request); the secret itself never
 * travels. Application logins never stand for it.
 *
 * <p>The secret is text (at least {@value #MIN_LENGTH} characters), given or read from a file; its
 * UTF-8 bytes are the key. It may also be derived from another secret (the NameServer secret) so
 * that a deployment holding that one needs nothing more. Immutable and thread-safe;
 * {@link #toString()} never shows it.
 */
public final class ClusterSecret {

    /** Fewer characters than this are refused: a short secret can be guessed offline from one captured MAC. */
    public static final int MIN_LENGTH = SharedSecret.MIN_LENGTH;
    /** Bytes of every MAC this secret makes. */
    public static final int MAC_LENGTH = SharedSecret.MAC_LENGTH;

    private static final byte[] DERIVATION_LABEL = "ramjet cluster identity".getBytes(StandardCharsets.UTF_8);

    private final SharedSecret secret;

    private ClusterSecret(SharedSecret secret) {
        this.secret = secret;
    }

    /** The secret as given, surrounding white space removed. */
    public static ClusterSecret of(String secret) {
        return new ClusterSecret(SharedSecret.of(secret, "the cluster secret"));
    }

    /** The secret held by a text file (the whole file, surrounding white space removed). */
    public static ClusterSecret fromFile(Path file) throws IOException {
        return of(Files.readString(file, StandardCharsets.UTF_8));
    }

    /** The cluster secret derived from another secret, for a deployment that configures no other. */
    public static ClusterSecret derivedFrom(SharedSecret other) {
        return new ClusterSecret(other.derived(DERIVATION_LABEL));
    }

    /** A fresh random secret: 32 random bytes as Base64. */
    public static String generate() {
        return SharedSecret.generate();
    }

    /** {@code length} bytes from a strong random source, for challenges and nonces. */
    public static byte[] random(int length) {
        return SharedSecret.random(length);
    }

    /** The HMAC-SHA256 of {@code message} keyed with this secret ({@value #MAC_LENGTH} bytes). */
    public byte[] mac(byte[] message) {
        return secret.mac(message);
    }

    /** Whether {@code mac} is this secret's MAC of {@code message}, compared in constant time. */
    public boolean signed(byte[] message, byte[] mac) {
        return secret.signed(message, mac);
    }

    @Override
    public String toString() {
        return "ClusterSecret[****]";
    }
}
