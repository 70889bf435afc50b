package io.ramjet.controller;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

/**
 * Every message of the controller group carries a MAC of the cluster secret, so that only
 * members of the cluster (brokers and controllers) are heard: a request (read or write), a log
 * entry (what the leader appends, checked again as each controller applies it), a reply (so a
 * broker takes no role from an impostor) and a snapshot file (checked as it is loaded, whether
 * this controller wrote it or a leader sent it). One layout, drawn here:
 *
 * <pre>
 *  0        4              12                         44
 *  | magic  | timestamp ms | HMAC-SHA256 (32 bytes)   | payload (ControllerCodec bytes) ... |
 * </pre>
 *
 * The MAC covers the kind (request, entry, reply: none stands for another), the timestamp and the
 * payload. A request is accepted within {@link #WINDOW} of the controller's clock, so a captured
 * request serves an eavesdropper for that long at most; a log entry and a snapshot are checked by MAC alone
 * (applying it must give the same result on every controller, whenever it runs). Immutable and
 * thread-safe.
 */
final class ControllerSignature {

    /** How far a request's timestamp may be from the controller's clock, either way. */
    static final Duration WINDOW = Duration.ofMinutes(5);

    /** What a signed message is; part of what its MAC covers. */
    enum Kind { REQUEST, ENTRY, REPLY, SNAPSHOT }

    private static final int MAGIC = 0x524A4353; // "RJCS"
    private static final int HEADER = 4 + 8 + ClusterSecret.MAC_LENGTH;

    private final ClusterSecret secret;

    ControllerSignature(ClusterSecret secret) {
        this.secret = secret;
    }

    byte[] sign(Kind kind, byte[] payload, long nowMillis) {
        byte[] mac = secret.mac(covered(kind, nowMillis, payload));
        return ByteBuffer.allocate(HEADER + payload.length).putInt(MAGIC).putLong(nowMillis).put(mac).put(payload)
                .array();
    }

    /**
     * The payload of a message this secret signed as {@code kind}.
     *
     * @throws IOException if it is not one
     */
    byte[] open(Kind kind, byte[] signed) throws IOException {
        return open(kind, signed, 0, false);
    }

    /**
     * The payload of a message this secret signed as {@code kind} within {@link #WINDOW} of {@code nowMillis}.
     *
     * @throws IOException if it is not one
     */
    byte[] openFresh(Kind kind, byte[] signed, long nowMillis) throws IOException {
        return open(kind, signed, nowMillis, true);
    }

    private byte[] open(Kind kind, byte[] signed, long nowMillis, boolean fresh) throws IOException {
        if (signed.length < HEADER) {
            throw new NotSignedException("a controller message without the cluster secret's signature");
        }
        ByteBuffer buffer = ByteBuffer.wrap(signed);
        if (buffer.getInt() != MAGIC) {
            throw new NotSignedException("a controller message without the cluster secret's signature");
        }
        long timestamp = buffer.getLong();
        byte[] mac = new byte[ClusterSecret.MAC_LENGTH];
        buffer.get(mac);
        byte[] payload = Arrays.copyOfRange(signed, HEADER, signed.length);
        if (!secret.signed(covered(kind, timestamp, payload), mac)) {
            throw new NotSignedException("a controller " + kind.name().toLowerCase() + " not signed with the cluster"
                    + " secret");
        }
        if (fresh && Math.abs(nowMillis - timestamp) > WINDOW.toMillis()) {
            throw new NotSignedException("a controller request signed " + (nowMillis - timestamp) + " ms away from"
                    + " this controller's clock (at most " + WINDOW.toMillis() + "): clocks must agree");
        }
        return payload;
    }

    private static byte[] covered(Kind kind, long timestamp, byte[] payload) {
        byte[] label = ("ramjet controller " + kind.name()).getBytes(StandardCharsets.US_ASCII);
        return ByteBuffer.allocate(4 + label.length + 8 + payload.length).putInt(label.length).put(label)
                .putLong(timestamp).put(payload).array();
    }

    /** A message refused for its signature. */
    static final class NotSignedException extends IOException {
        NotSignedException(String message) {
            super(message);
        }
    }
}
