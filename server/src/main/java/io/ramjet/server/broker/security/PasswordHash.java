package io.ramjet.server.broker.security;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A salted, slow password hash: PBKDF2 with HMAC-SHA256 from the JDK, written as
 * {@code pbkdf2-sha256$iterations$saltBase64$hashBase64}. Verifying costs as much as hashing,
 * on purpose (about {@link #DEFAULT_ITERATIONS} HMAC rounds), and compares in constant time.
 * Immutable; {@link #toString()} shows no hash bytes.
 */
public final class PasswordHash {

    static final String SCHEME = "pbkdf2-sha256";
    private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
    /** OWASP's 2023 advice for PBKDF2-HMAC-SHA256 is 600,000; this keeps a login near 0.1 s on a small core. */
    public static final int DEFAULT_ITERATIONS = 210_000;
    /** Lines with fewer iterations are refused: they would make a stolen users file cheap to crack. */
    public static final int MIN_ITERATIONS = 100_000;
    private static final int SALT_BYTES = 16;
    private static final int HASH_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final int iterations;
    private final byte[] salt;
    private final byte[] hash;

    private PasswordHash(int iterations, byte[] salt, byte[] hash) {
        this.iterations = iterations;
        this.salt = salt;
        this.hash = hash;
    }

    /** A new hash of the password with a fresh random salt. */
    public static PasswordHash of(char[] password) {
        return of(password, DEFAULT_ITERATIONS);
    }

    static PasswordHash of(char[] password, int iterations) {
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        return new PasswordHash(checked(iterations), salt, derive(password, salt, iterations, HASH_BYTES));
    }

    /** @throws IllegalArgumentException when the text is not a hash in this format */
    public static PasswordHash parse(String encoded) {
        String[] parts = encoded.trim().split("\\$", -1);
        if (parts.length != 4 || !parts[0].equals(SCHEME)) {
            throw new IllegalArgumentException("not a " + SCHEME + "$iterations$salt$hash value");
        }
        int iterations;
        byte[] salt;
        byte[] hash;
        try {
            iterations = Integer.parseInt(parts[1]);
            salt = Base64.getDecoder().decode(parts[2]);
            hash = Base64.getDecoder().decode(parts[3]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("malformed " + SCHEME + " value: " + e.getMessage());
        }
        if (salt.length < 8 || hash.length < 16) {
            throw new IllegalArgumentException(SCHEME + " value with a salt or hash too short");
        }
        return new PasswordHash(checked(iterations), salt, hash);
    }

    private static int checked(int iterations) {
        if (iterations < MIN_ITERATIONS) {
            throw new IllegalArgumentException(SCHEME + " needs at least " + MIN_ITERATIONS + " iterations, not "
                    + iterations);
        }
        return iterations;
    }

    /** Whether the password is the one hashed; takes the full hashing time whatever the answer. */
    public boolean matches(char[] password) {
        return MessageDigest.isEqual(derive(password, salt, iterations, hash.length), hash);
    }

    /** The text form, for a users file. */
    public String encoded() {
        Base64.Encoder b64 = Base64.getEncoder();
        return SCHEME + "$" + iterations + "$" + b64.encodeToString(salt) + "$" + b64.encodeToString(hash);
    }

    public int iterations() {
        return iterations;
    }

    private static byte[] derive(char[] password, byte[] salt, int iterations, int length) {
        PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, length * 8);
        try {
            return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is missing from this JDK", e);
        } finally {
            spec.clearPassword();
        }
    }

    @Override
    public String toString() {
        return "PasswordHash[" + SCHEME + ", " + iterations + " iterations]";
    }

    /**
     * A hash no password is known to match (random bytes under a random salt), verified against
     * for unknown users so that they take as long as known ones.
     */
    static PasswordHash decoy() {
        byte[] salt = new byte[SALT_BYTES];
        byte[] hash = new byte[HASH_BYTES];
        RANDOM.nextBytes(salt);
        RANDOM.nextBytes(hash);
        return new PasswordHash(DEFAULT_ITERATIONS, salt, hash);
    }
}
