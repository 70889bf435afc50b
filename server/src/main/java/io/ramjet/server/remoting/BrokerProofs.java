package io.ramjet.server.remoting;

import io.ramjet.controller.SharedSecret;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.BrokerProof;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.command.RegisterBrokerRequest;
import io.ramjet.protocol.command.UnregisterBrokerRequest;
import io.ramjet.server.config.NameServerSecret;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;

/**
 * The proofs with which a broker signs each REGISTER_BROKER and UNREGISTER_BROKER: a
 * {@link BrokerProof}, an HMAC-SHA256 keyed with the {@link NameServerSecret} over the command,
 * every field of the request, a timestamp and a random nonce. The secret never travels; the
 * NameServer checks the MAC, the time window and that the nonce is new. Without TLS the request
 * itself is still readable, not forgeable. Stateless and thread-safe; called by the
 * {@link BrokerRegistrar} (signing) and the NameServer's broker authentication (checking).
 */
public final class BrokerProofs {

    private BrokerProofs() {
    }

    public static RegisterBrokerRequest sign(NameServerSecret secret, RegisterBrokerRequest request, long nowMillis) {
        String nonce = nonce();
        return request.withProof(new BrokerProof(nowMillis, nonce, mac(secret, request, nowMillis, nonce)));
    }

    public static UnregisterBrokerRequest sign(NameServerSecret secret, UnregisterBrokerRequest request, long nowMillis) {
        String nonce = nonce();
        return request.withProof(new BrokerProof(nowMillis, nonce, mac(secret, request, nowMillis, nonce)));
    }

    /** Whether the request carries a proof whose MAC this secret made; time and replay are the caller's to check. */
    public static boolean signed(NameServerSecret secret, RegisterBrokerRequest request) {
        BrokerProof proof = request.proof();
        return proof != null && matches(proof, mac(secret, request, proof.timestampMillis(), proof.nonce()));
    }

    public static boolean signed(NameServerSecret secret, UnregisterBrokerRequest request) {
        BrokerProof proof = request.proof();
        return proof != null && matches(proof, mac(secret, request, proof.timestampMillis(), proof.nonce()));
    }

    private static boolean matches(BrokerProof proof, String expected) {
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                proof.mac().getBytes(StandardCharsets.UTF_8));
    }

    private static String nonce() {
        return Base64.getEncoder().withoutPadding().encodeToString(SharedSecret.random(16));
    }

    private static String mac(NameServerSecret secret, RegisterBrokerRequest request, long timestampMillis,
                              String nonce) {
        return mac(secret, out -> {
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

    private static String mac(NameServerSecret secret, UnregisterBrokerRequest request, long timestampMillis,
                              String nonce) {
        return mac(secret, out -> {
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

    private static String mac(NameServerSecret secret, Fields fields) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            fields.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getEncoder().encodeToString(secret.mac(bytes.toByteArray()));
    }
}
