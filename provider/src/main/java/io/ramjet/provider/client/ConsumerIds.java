package io.ramjet.provider.client;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Consumer ids: random 64-bit values, unique on a broker in practice. Never
 * {@code Long.MIN_VALUE}, which the broker keeps for the transactions' own hold.
 */
public final class ConsumerIds {

    private ConsumerIds() {
    }

    public static long next() {
        long id;
        do {
            id = ThreadLocalRandom.current().nextLong();
        } while (id == Long.MIN_VALUE);
        return id;
    }
}
