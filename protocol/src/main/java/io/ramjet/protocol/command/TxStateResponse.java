package io.ramjet.protocol.command;

import io.ramjet.model.TxState;

import java.util.Objects;

/** Response header of {@link CommandCode#TX_CHECK} and {@link CommandCode#TX_QUERY}. */
public record TxStateResponse(long transactionId, TxState state) {

    public TxStateResponse {
        Objects.requireNonNull(state, "state");
    }
}
