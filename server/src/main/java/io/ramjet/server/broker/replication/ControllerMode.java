package io.ramjet.server.broker.replication;

import io.ramjet.controller.ControllerTls;

import java.time.Duration;
import java.util.Objects;

/**
 * Whether a broker's role comes from the controller group and how it talks to it.
 *
 * @param addresses         the controller group's peers, {@code n0=host:port,n1=host:port,...} (the
 *                          controllers' {@code controller.peers}), or null when roles come from the configuration
 * @param heartbeatInterval how often the broker heartbeats to the controller group
 * @param brokerTimeout     the controllers' {@code controller.brokerTimeoutMillis}, a master's lease: a
 *                          master whose heartbeats have gone unanswered this long refuses writes, since
 *                          the controllers may be electing another master
 * @param registerPatience  how long a starting broker retries its registration while the controller
 *                          group has no leader (or names no master) before it gives up
 * @param tls               the controller group's mutual TLS, the certificate this broker presents to
 *                          the controllers and the ones it trusts; null when the controllers have none
 */
public record ControllerMode(String addresses, Duration heartbeatInterval, Duration brokerTimeout,
                             Duration registerPatience, ControllerTls tls) {

    public static final Duration DEFAULT_HEARTBEAT = Duration.ofMillis(500);
    public static final Duration DEFAULT_BROKER_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration DEFAULT_REGISTER_PATIENCE = Duration.ofSeconds(30);
    public static final ControllerMode OFF = new ControllerMode(null, DEFAULT_HEARTBEAT, DEFAULT_BROKER_TIMEOUT,
            DEFAULT_REGISTER_PATIENCE, null);

    public ControllerMode {
        Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
        Objects.requireNonNull(brokerTimeout, "brokerTimeout");
        Objects.requireNonNull(registerPatience, "registerPatience");
        if (registerPatience.isNegative()) {
            throw new IllegalArgumentException("controllerRegisterPatienceMs must not be negative");
        }
        if (heartbeatInterval.isNegative() || heartbeatInterval.isZero() || brokerTimeout.compareTo(heartbeatInterval) <= 0) {
            throw new IllegalArgumentException("controllerHeartbeatMs must be positive and below controllerTimeoutMs");
        }
        if (addresses != null && addresses.isBlank()) {
            addresses = null;
        }
    }

    /** Controller mode without TLS. */
    public ControllerMode(String addresses, Duration heartbeatInterval, Duration brokerTimeout,
                          Duration registerPatience) {
        this(addresses, heartbeatInterval, brokerTimeout, registerPatience, null);
    }

    public boolean enabled() {
        return addresses != null;
    }
}
