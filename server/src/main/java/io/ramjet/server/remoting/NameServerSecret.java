package io.ramjet.server.remoting;

import io.ramjet.controller.ClusterSecret;
import io.ramjet.controller.SharedSecret;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.BrokerProof;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.command.RegisterBrokerRequest;
import io.ramjet.protocol.command.UnregisterBrokerRequest;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;

/**
 * The secret shared by the NameServers and the brokers allowed to register with them. A broker
 * signs each REGISTER_BROKER and UNREGISTER_BROKER with a {@link BrokerProof}: an HMAC-SHA256
 * keyed with the secret over the command, every field of the request, a timestamp and a random
 * nonce. The secret never travels; the NameServer checks the MAC, the time window and that the
 * nonce is new. Without TLS the request itself is still readable, not forgeable.
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

    public RegisterBrokerRequest sign(RegisterBrokerRequest request, long nowMillis) {
        String nonce = nonce();
        return request.withProof(new BrokerProof(nowMillis, nonce, mac(request, nowMillis, nonce)));
    }

    public UnregisterBrokerRequest sign(UnregisterBrokerRequest request, long nowMillis) {
        String nonce = nonce();
        return request.withProof(new BrokerProof(nowMillis, nonce, mac(request, nowMillis, nonce)));
    }

    /** Whether the request carries a proof whose MAC this secret made; time and replay are the caller's to check. */
    public boolean signed(RegisterBrokerRequest request) {
        BrokerProof proof = request.proof();
        return proof != null && matches(proof, mac(request, proof.timestampMillis(), proof.nonce()));
    }

    public boolean signed(UnregisterBrokerRequest request) {
        BrokerProof proof = request.proof();
        return proof != null && matches(proof, mac(request, proof.timestampMillis(), proof.nonce()));
    }

    private static boolean matches(BrokerProof proof, String expected) {
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                proof.mac().getBytes(StandardCharsets.UTF_8));
    }

    private static String nonce() {
        return Base64.getEncoder().withoutPadding().encodeToString(SharedSecret.random(16));
    }

    private String mac(RegisterBrokerRequest request, long timestampMillis, String nonce) {
        return mac(out -> {
            writeString(out, "REGISTER_BROKER");
            BrokerInfo broker = request.broker();
            writeName(out, broker.clusterName(), broker.brokerName(), broker.brokerId());
            writeString(out, broker.address());
            List<DestinationInfo> destinations = request.destinations();
            out.writeInt(destinations.size());
            for (DestinationInfo destination : destinations) {
                writeString(out, destination.name());
                writeString(out, destination.kind().name());
                out.writeInt(destination.queueCount());
                out.writeInt(destination.permissions());
            }
            out.writeInt(request.epoch());
            out.writeLong(timestampMillis);
            writeString(out, nonce);
        });
    }

    private String mac(UnregisterBrokerRequest request, long timestampMillis, String nonce) {
        return mac(out -> {
            writeString(out, "UNREGISTER_BROKER");
            writeName(out, request.clusterName(), request.brokerName(), request.brokerId());
            out.writeLong(timestampMillis);
            writeString(out, nonce);
        });
    }

    private static void writeName(DataOutputStream out, String cluster, String name, long id) throws IOException {
        writeString(out, cluster);
        writeString(out, name);
        out.writeLong(id);
    }

    /** Length and UTF-8 bytes, so no two field lists encode alike and no length is too long. */
    private static void writeString(DataOutputStream out, String value) throws IOException {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private interface Fields {
        void write(DataOutputStream out) throws IOException;
    }

    private String mac(Fields fields) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            fields.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getEncoder().encodeToString(secret.mac(bytes.toByteArray()));
    }

    @Override
    public String toString() {
        return "NameServerSecret[****]";
    }
}
