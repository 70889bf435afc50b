package io.ramjet.protocol.remoting;

import io.ramjet.protocol.frame.Frame;

import java.util.concurrent.CompletionStage;

/**
 * Handles one command code whose response comes later, e.g. a pull held until a message
 * arrives. The response is written when the stage completes, with the same rules as
 * {@link RequestProcessor} for its value and failures.
 */
@FunctionalInterface
public interface AsyncRequestProcessor {

    CompletionStage<Frame> process(RemotingConnection connection, Frame request) throws Exception;
}
