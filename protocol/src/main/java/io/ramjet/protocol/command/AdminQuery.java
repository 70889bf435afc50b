package io.ramjet.protocol.command;

/**
 * Header of the admin listings ({@link CommandCode#ADMIN_DESTINATIONS},
 * {@link CommandCode#ADMIN_SUBSCRIPTIONS}, {@link CommandCode#ADMIN_CONSUMERS}).
 *
 * @param destination only what concerns the destination of that name (queue or topic); null for everything
 */
public record AdminQuery(String destination) {
}
