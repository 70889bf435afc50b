package io.ramjet.server.cluster;

import io.ramjet.controller.ClusterSecret;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The two MACs of the cluster handshake, made and checked alike on both sides. The answering
 * broker sends a fresh challenge for the connection; the asking broker proves the secret by
 * {@link #member}, a MAC over the challenge, a nonce of its own and the name it claims; the
 * answering broker proves it in return by {@link #answer} over the same challenge and nonce. Each
 * MAC begins with its own purpose, so that neither can stand for the other, and every field is
 * length-prefixed, so that no two field lists encode alike. Bytes travel as Base64.
 */
public final class ClusterProof {

    /** Random bytes in a challenge and in a nonce. */
    static final int RANDOM_BYTES = 32;

    private ClusterProof() {
    }

    static String randomText() {
        return Base64.getEncoder().encodeToString(ClusterSecret.random(RANDOM_BYTES));
    }

    /** The asking broker's proof that it is broker {@code brokerId} of group {@code brokerName}. */
    static String member(ClusterSecret secret, String challenge, String nonce, String brokerName, long brokerId) {
        return mac(secret, "CLUSTER_MEMBER", challenge, nonce, brokerName, Long.toString(brokerId));
    }

    /** The answering broker's proof in return. */
    static String answer(ClusterSecret secret, String challenge, String nonce) {
        return mac(secret, "CLUSTER_ANSWER", challenge, nonce);
    }

    /** Whether {@code mac} (Base64) is {@code expected}, compared in constant time. */
    static boolean matches(String expected, String mac) {
        return java.security.MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                mac.getBytes(StandardCharsets.UTF_8));
    }

    private static String mac(ClusterSecret secret, String... fields) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            for (String field : fields) {
                byte[] utf8 = field.getBytes(StandardCharsets.UTF_8);
                out.writeInt(utf8.length);
                out.write(utf8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getEncoder().encodeToString(secret.mac(bytes.toByteArray()));
    }
}
