package io.ramjet.server.broker.ha;

import io.ramjet.server.broker.replication.MasterLease;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A master's right to accept writes, renewed by every heartbeat the controllers answer naming it
 * master. The lease runs from when the answered heartbeat was sent, not received: the controllers
 * heard the master no earlier than that, so they elect no other master before the lease ends.
 * Thread-safe.
 */
final class ControllerLease implements MasterLease {

    private static final long NONE = Long.MIN_VALUE;

    private final long timeoutNanos;
    private final LongSupplier nanoClock;
    private final AtomicLong sentAtNanos = new AtomicLong(NONE);

    ControllerLease(Duration timeout, LongSupplier nanoClock) {
        this.timeoutNanos = timeout.toNanos();
        this.nanoClock = nanoClock;
    }

    /**
     * A heartbeat (or registration) sent at {@code sentAt} was answered: this broker is master.
     * An answer to an earlier heartbeat than the one the lease runs from leaves it as it is.
     */
    void renew(long sentAt) {
        sentAtNanos.accumulateAndGet(sentAt, (held, next) -> held == NONE || next - held > 0 ? next : held);
    }

    /** The controllers named another master, or this broker stops being one. */
    void revoke() {
        sentAtNanos.set(NONE);
    }

    @Override
    public boolean held() {
        long sentAt = sentAtNanos.get();
        return sentAt != NONE && nanoClock.getAsLong() - sentAt < timeoutNanos;
    }
}
