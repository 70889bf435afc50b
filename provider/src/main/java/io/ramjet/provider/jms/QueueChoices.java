package io.ramjet.provider.jms;

import io.ramjet.provider.destination.RamjetDestination;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands out the queue choices of one connection's sessions, per destination: consecutive
 * numbers from a random start, so that the sessions sending to a destination spread evenly over
 * all its queues of all its groups (the client reduces a choice modulo the number of groups,
 * then the quotient modulo the group's queues), and connections start at different places.
 * Thread-safe.
 */
final class QueueChoices {

    private final Map<RamjetDestination, AtomicInteger> next = new ConcurrentHashMap<>();

    /** The next choice for a session sending to {@code destination}, never negative. */
    int next(RamjetDestination destination) {
        AtomicInteger counter = next.computeIfAbsent(destination,
                d -> new AtomicInteger(ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE)));
        return counter.getAndIncrement() & Integer.MAX_VALUE;
    }
}
