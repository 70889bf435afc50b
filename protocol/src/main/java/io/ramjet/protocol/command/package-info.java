/**
 * What frames say: {@link io.ramjet.protocol.command.CommandCode}s, the header records they
 * carry, and {@link io.ramjet.protocol.command.HeaderRegistry}, the only classes (with fixed
 * Kryo ids) a header may hold. Header records normalise lists with {@code List.copyOf}, which
 * is what the registry can encode.
 */
package io.ramjet.protocol.command;
