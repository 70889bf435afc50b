package io.ramjet.protocol.command;

import java.util.List;

/**
 * Response header of {@link CommandCode#PULL}: the messages, in the order their records follow
 * one another in the body. Empty when the hold ended with nothing to deliver.
 */
public record PullResponse(List<PulledMessage> messages) {

    public PullResponse {
        messages = List.copyOf(messages);
    }
}
