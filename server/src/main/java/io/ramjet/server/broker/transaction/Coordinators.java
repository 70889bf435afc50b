package io.ramjet.server.broker.transaction;

import io.ramjet.model.TxState;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** The other brokers, as coordinators of the transactions this one takes part in. */
public interface Coordinators {

    /** What the coordinator at {@code address} knows of transaction {@code id}; fails when it does not answer. */
    CompletableFuture<TxState> query(String address, long id, Duration timeout);
}
