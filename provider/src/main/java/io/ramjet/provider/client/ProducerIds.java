package io.ramjet.provider.client;

import java.security.SecureRandom;

/**
 * Idempotent producer ids: random nonzero 64-bit values from a {@link SecureRandom}, so two
 * clients (other processes, other hosts) do not pick the same one in practice: the broker keeps
 * one sequence per id.
 */
public final class ProducerIds {

    private static final SecureRandom RANDOM = new SecureRandom();

    private ProducerIds() {
    }

    public static long next() {
        long id;
        do {
            id = RANDOM.nextLong();
        } while (id == 0);
        return id;
    }
}
