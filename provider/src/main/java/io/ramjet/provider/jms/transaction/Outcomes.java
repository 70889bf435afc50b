package io.ramjet.provider.jms.transaction;

import io.ramjet.provider.client.ClientException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/** Waiting for a broker's answer without throwing: the failure, if any, is the value. */
final class Outcomes {

    private Outcomes() {
    }

    /** Null when the call succeeded, else its failure; an interruption is a failure of unknown outcome. */
    static ClientException failureOf(CompletableFuture<?> call) {
        try {
            call.get();
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ClientException(ClientException.Reason.FAILED, ClientException.Outcome.OUTCOME_UNKNOWN,
                    "interrupted", e);
        } catch (ExecutionException e) {
            return ClientException.of(e.getCause());
        }
    }
}
