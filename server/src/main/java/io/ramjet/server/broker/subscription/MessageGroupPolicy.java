package io.ramjet.server.broker.subscription;

import java.time.Duration;
import java.util.Objects;

/**
 * How a broker treats message groups ({@code JMSXGroupID}) on queues and shared subscriptions.
 *
 * @param enabled         whether groups are honoured at all; when not, a group id is just a property
 * @param idleTimeout     how long a group whose messages are all acknowledged stays with its consumer
 *                        without a new one; zero keeps it until the consumer leaves
 * @param rebalanceOnJoin whether a consumer joining a subscription frees every group of its other
 *                        consumers, so groups spread again (off by default, as in ActiveMQ Artemis)
 */
public record MessageGroupPolicy(boolean enabled, Duration idleTimeout, boolean rebalanceOnJoin) {

    public static final MessageGroupPolicy DEFAULT = new MessageGroupPolicy(true, Duration.ofSeconds(60), false);

    public MessageGroupPolicy {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (idleTimeout.isNegative()) {
            throw new IllegalArgumentException("groupIdleTimeout must be zero or positive");
        }
    }

    /** The idle timeout in milliseconds, {@link Long#MAX_VALUE} for none. */
    long idleMillis() {
        return idleTimeout.isZero() ? Long.MAX_VALUE : idleTimeout.toMillis();
    }
}
