package io.ramjet.server.config;

import io.ramjet.controller.ClusterSecret;
import io.ramjet.controller.SharedSecret;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The secret shared by the NameServers and the brokers allowed to register with them, as a
 * configuration value: the key of the MAC with which a broker signs its registrations
 * ({@code io.ramjet.server.remoting.BrokerProofs}). The secret never travels.
 *
 * <p>The secret is text (at least 16 characters), read from a file or a property; its UTF-8 bytes
 * are the key. Immutable and thread-safe; {@link #toString()} never shows it.
 */
public final class NameServerSecret {

    /** Fewer characters than this are refused: a short secret can be guessed offline from one captured MAC. */
    public static final int MIN_LENGTH = SharedSecret.MIN_LENGTH;

    private final SharedSecret secret;

    private NameServerSecret(SharedSecret secret) {
        this.secret = secret;
    }

    /** The secret as given, surrounding white space removed. */
    public static NameServerSecret of(String secret) {
        return new NameServerSecret(SharedSecret.of(secret, "the NameServer secret"));
    }

    /** The secret held by a text file (the whole file, surrounding white space removed). */
    public static NameServerSecret fromFile(Path file) throws IOException {
        return of(Files.readString(file, StandardCharsets.UTF_8));
    }

    /** A fresh random secret: 32 random bytes as Base64. */
    public static String generate() {
        return SharedSecret.generate();
    }

    /** The cluster secret derived from this one, for a deployment that configures no other. */
    public ClusterSecret clusterSecret() {
        return ClusterSecret.derivedFrom(secret);
    }

    /** The HMAC-SHA256 of {@code message} keyed with the secret. */
    public byte[] mac(byte[] message) {
        return secret.mac(message);
    }

    @Override
    public String toString() {
        return "NameServerSecret[****]";
    }
}
