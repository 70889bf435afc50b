package io.ramjet.provider.jms.transaction;

import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnectionException;
import io.ramjet.provider.client.RemotingRamjetClient;
import java.net.ConnectException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/** Waiting for a broker's answer and telling a refusal from a lost answer. */
final class Outcomes {

    private Outcomes() {
    }

    /** Null when the call succeeded, else the remoting failure inside it. */
    static Throwable failureOf(CompletableFuture<?> call) {
        try {
            call.get();
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        } catch (ExecutionException e) {
            return RemotingRamjetClient.unwrap(e.getCause());
        }
    }

    /** The broker answered with an error status: it did not do what was asked. */
    static boolean isRefusal(Throwable failure) {
        return failure instanceof RemotingCommandException;
    }

    /** The request never left this client: no connection to the broker could be opened. */
    static boolean neverSent(Throwable failure) {
        return failure instanceof RemotingConnectionException && failure.getCause() instanceof ConnectException;
    }

    static boolean hasStatus(Throwable failure, int status) {
        return failure instanceof RemotingCommandException c && c.status() == status;
    }

    static boolean isRolledBack(Throwable failure) {
        return hasStatus(failure, ErrorStatus.TRANSACTION_ROLLED_BACK);
    }
}
