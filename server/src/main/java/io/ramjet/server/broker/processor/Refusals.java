package io.ramjet.server.broker.processor;

import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.AsyncRequestProcessor;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RequestProcessor;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import java.util.concurrent.CompletionException;

/**
 * The one table from the domain's refusals to the statuses the client sees, and the wrapper that
 * applies it to every broker processor. An {@link IllegalArgumentException} a processor meets
 * while reading a request (a header of the wrong type, a selector or section that does not
 * parse, a value out of range) is the client's mistake: BAD_REQUEST. Anything else stays a
 * failure of the broker (INTERNAL_ERROR).
 */
public final class Refusals {

    private Refusals() {
    }

    /** The status a client sees for {@code refusal}. */
    static int status(Refusal refusal) {
        return switch (refusal) {
            case BAD_REQUEST -> ErrorStatus.BAD_REQUEST;
            case NOT_FOUND -> ErrorStatus.NOT_FOUND;
            case UNKNOWN_DESTINATION -> ErrorStatus.UNKNOWN_DESTINATION;
            case SUBSCRIPTION_CONFLICT -> ErrorStatus.SUBSCRIPTION_CONFLICT;
            case DISK_FULL -> ErrorStatus.STORE_FULL;
            case UNKNOWN_CONSUMER -> ErrorStatus.UNKNOWN_CONSUMER;
            case NOT_HELD -> ErrorStatus.DELIVERY_NOT_HELD;
            case TX_ROLLED_BACK -> ErrorStatus.TRANSACTION_ROLLED_BACK;
            case TX_UNKNOWN -> ErrorStatus.UNKNOWN_TRANSACTION;
            case TX_CONFLICT -> ErrorStatus.TRANSACTION_CONFLICT;
            case CLIENT_ID_IN_USE -> ErrorStatus.CLIENT_ID_IN_USE;
            case NOT_AUTHENTICATED -> ErrorStatus.AUTHENTICATION_FAILED;
            case NOT_AUTHORIZED -> ErrorStatus.NOT_AUTHORIZED;
            case NOT_MASTER -> ErrorStatus.NOT_MASTER;
            case REPLICA_REFUSED -> ErrorStatus.REPLICA_REFUSED;
            case TOO_FEW_REPLICAS -> ErrorStatus.TOO_FEW_REPLICAS;
        };
    }

    /** The wire form of a failure: a refusal with its status, a bad argument as BAD_REQUEST, else itself. */
    static Throwable toWire(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (cause instanceof BrokerException refused) {
            return new RemotingCommandException(status(refused.refusal()), refused.getMessage());
        }
        if (cause instanceof IllegalArgumentException bad) {
            return new RemotingCommandException(ErrorStatus.BAD_REQUEST, bad.getMessage());
        }
        return failure;
    }

    /** {@code processor} answering its refusals with their statuses. */
    public static RequestProcessor mapped(RequestProcessor processor) {
        return (connection, request) -> {
            try {
                return processor.process(connection, request);
            } catch (Exception e) {
                throw rethrowable(toWire(e));
            }
        };
    }

    /** {@code processor} answering its refusals with their statuses, thrown or completing its stage. */
    public static AsyncRequestProcessor mappedAsync(AsyncRequestProcessor processor) {
        return (connection, request) -> {
            try {
                return processor.process(connection, request).exceptionally(failure -> {
                    Throwable wire = toWire(failure);
                    throw wire instanceof CompletionException same ? same : new CompletionException(wire);
                });
            } catch (Exception e) {
                throw rethrowable(toWire(e));
            }
        };
    }

    private static Exception rethrowable(Throwable failure) {
        if (failure instanceof Exception e) {
            return e;
        }
        throw (Error) failure;
    }
}
