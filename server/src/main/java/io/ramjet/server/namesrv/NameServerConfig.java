package io.ramjet.server.namesrv;

import io.ramjet.controller.ControllerConfig;
import io.ramjet.server.config.NameServerSecret;
import io.ramjet.server.config.RemotingServerConfig;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link NameServer}.
 *
 * @param remoting         where it listens and its connection limits
 * @param brokerExpiry     a broker not re-registered for this long is dropped
 * @param scanInterval     how often expired brokers are looked for
 * @param processorThreads threads serving requests
 * @param secret           the secret a broker must prove to register or unregister, or null to
 *                         accept unsigned registrations (logged as a warning at start)
 * @param controller       the controller node this NameServer runs in its JVM, or null for none
 */
public record NameServerConfig(RemotingServerConfig remoting, Duration brokerExpiry, Duration scanInterval,
                               int processorThreads, NameServerSecret secret, ControllerConfig controller,
                               Duration registrationWindow) {

    /**
     * How long after start route answers are not settled (see {@link NameServer}): several broker
     * reconnection intervals, for a NameServer that restarts beside running brokers. Zero where the
     * NameServer starts with its brokers in one process, which register before it serves clients.
     */
    public static final Duration DEFAULT_REGISTRATION_WINDOW = Duration.ofSeconds(2);

    public static final int DEFAULT_PORT = 9876;

    public NameServerConfig {
        Objects.requireNonNull(remoting, "remoting");
        Objects.requireNonNull(brokerExpiry, "brokerExpiry");
        Objects.requireNonNull(scanInterval, "scanInterval");
        Objects.requireNonNull(registrationWindow, "registrationWindow");
        if (brokerExpiry.isNegative() || brokerExpiry.isZero() || scanInterval.isNegative() || scanInterval.isZero()) {
            throw new IllegalArgumentException("brokerExpiry and scanInterval must be positive");
        }
        if (processorThreads < 1) {
            throw new IllegalArgumentException("processorThreads " + processorThreads);
        }
    }

    /**
     * Port 9876 on 127.0.0.1 (announced as bound), brokers expire after 120 s, scanned every 10 s, 4
     * threads, no secret, route answers settled 2 s after start.
     */
    public static NameServerConfig defaults() {
        return new NameServerConfig(RemotingServerConfig.onPort(DEFAULT_PORT).withRole("NameServer"), Duration.ofSeconds(120),
                Duration.ofSeconds(10), 4, null, null, DEFAULT_REGISTRATION_WINDOW);
    }

    public NameServerConfig withRemoting(RemotingServerConfig newRemoting) {
        return new NameServerConfig(newRemoting, brokerExpiry, scanInterval, processorThreads, secret, controller, registrationWindow);
    }

    public NameServerConfig withPort(int port) {
        return withRemoting(remoting.withPort(port));
    }

    /** Expiry and scan interval together: the scan should run several times per expiry. */
    public NameServerConfig withExpiry(Duration expiry, Duration scan) {
        return new NameServerConfig(remoting, expiry, scan, processorThreads, secret, controller, registrationWindow);
    }

    public NameServerConfig withProcessorThreads(int threads) {
        return new NameServerConfig(remoting, brokerExpiry, scanInterval, threads, secret, controller, registrationWindow);
    }

    /** Requires brokers to sign with this secret; null accepts unsigned registrations. */
    public NameServerConfig withSecret(NameServerSecret newSecret) {
        return new NameServerConfig(remoting, brokerExpiry, scanInterval, processorThreads, newSecret, controller,
                registrationWindow);
    }

    /** Runs {@code node} (its {@code controller.*} keys) in this NameServer's JVM; null runs none. */
    public NameServerConfig withController(ControllerConfig node) {
        return new NameServerConfig(remoting, brokerExpiry, scanInterval, processorThreads, secret, node,
                registrationWindow);
    }

    /** Route answers settled {@code window} after start; zero: at once. */
    public NameServerConfig withRegistrationWindow(Duration window) {
        return new NameServerConfig(remoting, brokerExpiry, scanInterval, processorThreads, secret, controller, window);
    }
}
