package io.ramjet.provider.client;

import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnectionException;
import io.ramjet.protocol.remoting.RemotingTimeoutException;
import io.ramjet.provider.client.ClientException.Outcome;
import io.ramjet.provider.client.ClientException.Reason;
import java.net.ConnectException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The one place that reads remoting failures and wire statuses: each becomes a
 * {@link ClientException}, its outcome from {@link ErrorStatus#certainlyNotApplied}.
 */
final class RemotingFailures {

    private RemotingFailures() {
    }

    /** The future, failing with the {@link ClientException} of its failure. */
    static <T> CompletableFuture<T> translated(CompletableFuture<T> future) {
        return future.exceptionallyCompose(failure -> CompletableFuture.failedFuture(of(failure)));
    }

    static ClientException of(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof ClientException client) {
            return client;
        }
        String message = String.valueOf(cause.getMessage());
        if (cause instanceof RemotingCommandException refused) {
            Outcome outcome = ErrorStatus.certainlyNotApplied(refused.status())
                    ? Outcome.CERTAINLY_NOT_APPLIED : Outcome.OUTCOME_UNKNOWN;
            return new ClientException(reason(refused.status()), outcome, message, cause);
        }
        if (cause instanceof RemotingConnectionException) {
            return cause.getCause() instanceof ConnectException
                    ? new ClientException(Reason.UNREACHABLE, Outcome.CERTAINLY_NOT_APPLIED,
                            "connection failure: " + message, cause)
                    : new ClientException(Reason.CONNECTION_LOST, Outcome.OUTCOME_UNKNOWN,
                            "connection failure: " + message, cause);
        }
        if (cause instanceof RemotingTimeoutException) {
            return new ClientException(Reason.TIMEOUT, Outcome.OUTCOME_UNKNOWN, message, cause);
        }
        return new ClientException(Reason.FAILED, Outcome.OUTCOME_UNKNOWN, message, cause);
    }

    private static Reason reason(int status) {
        return switch (status) {
            case ErrorStatus.BAD_REQUEST -> Reason.INVALID;
            case ErrorStatus.BUSY -> Reason.BUSY;
            case ErrorStatus.TOO_FEW_REPLICAS -> Reason.TOO_FEW_REPLICAS;
            case ErrorStatus.NOT_MASTER -> Reason.NOT_MASTER;
            case ErrorStatus.NOT_FOUND, ErrorStatus.UNKNOWN_DESTINATION -> Reason.NOT_FOUND;
            case ErrorStatus.SUBSCRIPTION_CONFLICT -> Reason.CONFLICT;
            case ErrorStatus.STORE_FULL -> Reason.RESOURCE;
            case ErrorStatus.UNKNOWN_CONSUMER -> Reason.NOT_ATTACHED;
            case ErrorStatus.TRANSACTION_ROLLED_BACK -> Reason.ROLLED_BACK;
            case ErrorStatus.UNKNOWN_TRANSACTION -> Reason.UNKNOWN_TRANSACTION;
            case ErrorStatus.TRANSACTION_CONFLICT -> Reason.TRANSACTION_CONFLICT;
            case ErrorStatus.CLIENT_ID_IN_USE -> Reason.CLIENT_ID_IN_USE;
            case ErrorStatus.DELIVERY_NOT_HELD -> Reason.NOT_HELD;
            case ErrorStatus.AUTHENTICATION_FAILED, ErrorStatus.NOT_AUTHORIZED -> Reason.SECURITY;
            default -> Reason.INTERNAL;
        };
    }
}
