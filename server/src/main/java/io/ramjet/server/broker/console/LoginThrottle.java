package io.ramjet.server.broker.console;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Back-off on failed console logins, per remote address. The first {@link #FREE_FAILURES}
 * failures cost nothing; each one after blocks the address for twice as long as the one before
 * (1 s, 2 s, 4 s ... at most {@link #MAX_BLOCK_MILLIS}). A blocked address is answered at once
 * (429 with {@code Retry-After}) without a login being tried, so guessing costs the attacker
 * time and never holds the HTTP thread that also serves {@code /metrics}: no request waits on
 * it. A login that succeeds forgets the address's failures. The addresses remembered are
 * bounded ({@link #ADDRESSES}, least recently seen dropped first). One log line per block, not
 * per refused request. Thread-safe (the instance's lock).
 */
final class LoginThrottle {

    private static final Logger LOG = LoggerFactory.getLogger(LoginThrottle.class);
    static final int FREE_FAILURES = 3;
    static final long FIRST_BLOCK_MILLIS = 1_000;
    static final long MAX_BLOCK_MILLIS = 60_000;
    private static final int ADDRESSES = 1_024;

    private static final class Failures {
        int count;
        long blockedUntil;
    }

    private final LongSupplier clock;
    private final Map<String, Failures> byAddress = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Failures> eldest) {
            return size() > ADDRESSES;
        }
    };

    /** @param clock milliseconds, monotonic */
    LoginThrottle(LongSupplier clock) {
        this.clock = clock;
    }

    /** How long the address must still wait before a login is tried for it, in ms; 0 when it may try now. */
    synchronized long waitMillis(String address) {
        Failures f = byAddress.get(address);
        return f == null ? 0 : Math.max(0, f.blockedUntil - clock.getAsLong());
    }

    /** A login from the address failed: it may be blocked for a while from now. */
    synchronized void failed(String address) {
        Failures f = byAddress.computeIfAbsent(address, a -> new Failures());
        f.count++;
        if (f.count > FREE_FAILURES) {
            int doublings = Math.min(f.count - FREE_FAILURES - 1, 16);
            long block = Math.min(MAX_BLOCK_MILLIS, FIRST_BLOCK_MILLIS << doublings);
            f.blockedUntil = clock.getAsLong() + block;
            LOG.warn("console: {} failed logins from {}: no login tried for it during the next {} ms", f.count,
                    address, block);
        }
    }

    /** A login from the address succeeded: its failures are forgotten. */
    synchronized void succeeded(String address) {
        byAddress.remove(address);
    }
}
