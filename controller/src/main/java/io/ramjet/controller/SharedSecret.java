package io.ramjet.controller;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * A secret that the parties who hold it prove by an HMAC-SHA256 keyed with it, over a message the
 * other side chose or checks; the secret itself never travels. The {@link ClusterSecret} and the
 * NameServer secret are each one of these with their own messages.
 *
 * <p>The secret is text (at least {@value #MIN_LENGTH} characters, surrounding white space removed);
 * its UTF-8 bytes are the key. Immutable and thread-safe; {@link #toString()} never shows it.
 */
public final class SharedSecret {

    /** Fewer characters than this are refused: a short secret can be guessed offline from one captured MAC. */
    public static final int MIN_LENGTH = 16;
    /** Bytes of every MAC this secret makes. */
    public static final int MAC_LENGTH = 32;

    private static final String ALGORITHM = "HmacSHA256";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    private SharedSecret(byte[] key) {
        this.key = new SecretKeySpec(key, ALGORITHM);
    }

    /**
     * The secret as given, surrounding white space removed.
     *
     * @param what what the secret is called in the refusal of a short one ("the cluster secret")
     */
    public static SharedSecret of(String secret, String what) {
        String trimmed = secret.strip();
        if (trimmed.length() < MIN_LENGTH) {
            throw new IllegalArgumentException(what + " must have at least " + MIN_LENGTH + " characters");
        }
        return new SharedSecret(trimmed.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A secret derived from this one: HMAC-SHA256 of {@code label} keyed with it, so a MAC made
     * with one never serves as a MAC of the other.
     */
    public SharedSecret derived(byte[] label) {
        return new SharedSecret(mac(label));
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
        return "SharedSecret[****]";
    }
}
