package io.ramjet.server.namesrv;

import io.ramjet.protocol.remoting.RemotingServerConfig;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link NameServer}.
 *
 * @param remoting         where it listens and its connection limits
 * @param brokerExpiry     a broker not re-registered for this long is dropped
 * @param scanInterval     how often expired brokers are looked for
 * @param processorThreads threads serving requests
 */
public record NameServerConfig(RemotingServerConfig remoting, Duration brokerExpiry, Duration scanInterval,
                               int processorThreads) {

    public static final int DEFAULT_PORT = 9876;

    public NameServerConfig {
        Objects.requireNonNull(remoting, "remoting");
        Objects.requireNonNull(brokerExpiry, "brokerExpiry");
        Objects.requireNonNull(scanInterval, "scanInterval");
        if (brokerExpiry.isNegative() || brokerExpiry.isZero() || scanInterval.isNegative() || scanInterval.isZero()) {
            throw new IllegalArgumentException("brokerExpiry and scanInterval must be positive");
        }
        if (processorThreads < 1) {
            throw new IllegalArgumentException("processorThreads " + processorThreads);
        }
    }

    /** Port 9876 on 127.0.0.1, brokers expire after 120 s, scanned every 10 s, 4 threads. */
    public static NameServerConfig defaults() {
        return new NameServerConfig(RemotingServerConfig.onPort(DEFAULT_PORT), Duration.ofSeconds(120),
                Duration.ofSeconds(10), 4);
    }

    public NameServerConfig withRemoting(RemotingServerConfig newRemoting) {
        return new NameServerConfig(newRemoting, brokerExpiry, scanInterval, processorThreads);
    }

    public NameServerConfig withPort(int port) {
        return withRemoting(remoting.withPort(port));
    }

    /** Expiry and scan interval together: the scan should run several times per expiry. */
    public NameServerConfig withExpiry(Duration expiry, Duration scan) {
        return new NameServerConfig(remoting, expiry, scan, processorThreads);
    }

    public NameServerConfig withProcessorThreads(int threads) {
        return new NameServerConfig(remoting, brokerExpiry, scanInterval, threads);
    }
}
