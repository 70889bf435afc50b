package io.ramjet.protocol.remoting;

import io.ramjet.protocol.frame.Frame;

/**
 * Handles one command code synchronously on the executor it was registered with.
 *
 * <p>Return {@code request.reply(...)}, or null for an empty response (ignored for one-way
 * frames). Throw {@link RemotingCommandException} to answer with a chosen error status; a
 * {@link io.ramjet.protocol.frame.HeaderTypeException} (a header of the wrong type) answers
 * {@code BAD_REQUEST}, anything else {@code INTERNAL_ERROR}. The request body needs no release.
 */
@FunctionalInterface
public interface RequestProcessor {

    Frame process(RemotingConnection connection, Frame request) throws Exception;
}
