package io.ramjet.controller;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

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
    public static final int MIN_LENGTH = 16;
    /** Bytes of every MAC this secret makes. */
    public static final int MAC_LENGTH = 32;

    private static final String ALGORITHM = "HmacSHA256";
    private static final byte[] DERIVATION_LABEL = "ramjet cluster identity".getBytes(StandardCharsets.UTF_8);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    private ClusterSecret(byte[] key) {
        this.key = new SecretKeySpec(key, ALGORITHM);
    }

    /** The secret as given, surrounding white space removed. */
    public static ClusterSecret of(String secret) {
        String trimmed = secret.strip();
        if (trimmed.length() < MIN_LENGTH) {
            throw new IllegalArgumentException("the cluster secret must have at least " + MIN_LENGTH + " characters");
        }
        return new ClusterSecret(trimmed.getBytes(StandardCharsets.UTF_8));
    }

    /** The secret held by a text file (the whole file, surrounding white space removed). */
    public static ClusterSecret fromFile(Path file) throws IOException {
        return of(Files.readString(file, StandardCharsets.UTF_8));
    }

    /**
     * A cluster secret derived from another secret's key: HMAC-SHA256 of a fixed label keyed with
     * it, so a MAC made with one never serves as a MAC of the other.
     */
    public static ClusterSecret derivedFrom(byte[] otherKey) {
        return new ClusterSecret(new ClusterSecret(otherKey).mac(DERIVATION_LABEL));
    }

    /** A fresh random secret: 32 random bytes as Base64. */
    public static String generate() {
        return Base64.getEncoder().withoutPadding().encodeToString(random(32));
    }

    /** {@code length} bytes from a strong random source, for challenges and nonces. */
    public static byte[] random(int length) {
        byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    /** The HMAC-SHA256 of {@code message} keyed with this secret ({@value #MAC_LENGTH} bytes). */
    public byte[] mac(byte[] message) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is part of every JDK", e);
        }
    }

    /** Whether {@code mac} is this secret's MAC of {@code message}, compared in constant time. */
    public boolean signed(byte[] message, byte[] mac) {
        return mac != null && MessageDigest.isEqual(mac(message), mac);
    }

    @Override
    public String toString() {
        return "ClusterSecret[****]";
    }
}
