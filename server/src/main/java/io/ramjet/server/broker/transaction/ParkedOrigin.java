package io.ramjet.server.broker.transaction;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Where a parked send may already be stored: message {@code sequence} of idempotent producer
 * {@code producerId}, written to group {@code group}'s master, which was lost before it answered.
 * A parked send is kept as a prepared transaction whose coordinator is this origin
 * ({@link #coordinator()}): its id follows from the origin ({@link #transactionId()}), so a resend
 * of the same parked send finds it.
 */
public record ParkedOrigin(String group, long producerId, long sequence) {

    private static final String PREFIX = "parked:";

    public ParkedOrigin {
        if (group == null || group.isEmpty() || producerId == 0 || sequence < 1) {
            throw new IllegalArgumentException("parked send from group " + group + ", producer " + producerId
                    + ", sequence " + sequence);
        }
    }

    /** The origin a transaction's coordinator names, if it is a parked send's. */
    public static Optional<ParkedOrigin> of(String coordinator) {
        if (coordinator == null || !coordinator.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String[] parts = coordinator.substring(PREFIX.length()).split(":", 3);
        if (parts.length != 3) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ParkedOrigin(parts[2], Long.parseUnsignedLong(parts[0], 16),
                    Long.parseLong(parts[1])));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The coordinator field of the parked send's vote: {@code parked:<producer hex>:<sequence>:<group>}. */
    public String coordinator() {
        return PREFIX + Long.toHexString(producerId) + ":" + sequence + ":" + group;
    }

    /** The id of the transaction that holds the parked send: a mix of the origin's fields, never 0. */
    public long transactionId() {
        long h = 0x9E3779B97F4A7C15L;
        for (byte b : group.getBytes(StandardCharsets.UTF_8)) {
            h = mix(h ^ b);
        }
        h = mix(h ^ producerId);
        h = mix(h ^ sequence);
        return h == 0 ? 1 : h;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public String toString() {
        return "producer " + Long.toHexString(producerId) + " sequence " + sequence + " of group " + group;
    }
}
