package io.ramjet.provider.client;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Consumer ids: random positive 63-bit values, unique on a broker in practice, shown to operators
 * as they are (a listing of consumers). Never zero or negative: the broker keeps
 * {@code Long.MIN_VALUE} for the transactions' own hold.
 */
public final class ConsumerIds {

    private ConsumerIds() {
    }

    public static long next() {
        return ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    }
}
