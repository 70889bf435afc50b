package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * Header of {@link CommandCode#ADMIN_MOVE}: moves (or copies) messages of a queue that no
 * consumer holds now to another destination, oldest first. Each copy is durable before its
 * original is acknowledged, so a crash between the two leaves a message in both places, never
 * in neither. Answered with an {@link AdminCount} of the messages moved.
 *
 * @param from        the source queue, e.g. a dead-letter queue
 * @param to          the target queue (or topic, if no queue has the name); null sends each message back to
 *                    the destination named by its {@code JMS_RamjetOriginalDestination} property
 * @param selector    only the messages it selects; null for all
 * @param copy        leave the originals where they are
 * @param maxMessages at most this many
 */
public record MoveRequest(String from, String to, String selector, boolean copy, int maxMessages) {

    public MoveRequest {
        Objects.requireNonNull(from, "from");
        if (maxMessages < 1) {
            throw new IllegalArgumentException("maxMessages " + maxMessages);
        }
    }
}
