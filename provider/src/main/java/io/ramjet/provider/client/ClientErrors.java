package io.ramjet.provider.client;

import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnectionException;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.TransactionRolledBackException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/** The JMS exception for each failure of the client layer. */
public final class ClientErrors {

    private ClientErrors() {
    }

    /** Waits for a client operation, turning its failure into the JMS exception it means. */
    public static <T> T await(CompletableFuture<T> future) throws JMSException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw linked(new JMSException("interrupted"), e);
        } catch (ExecutionException e) {
            throw toJms(e.getCause());
        }
    }

    public static JMSException toJms(Throwable failure) {
        Throwable cause = RemotingRamjetClient.unwrap(failure);
        if (cause instanceof ExecutionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof JMSException jms) {
            return jms;
        }
        String message = String.valueOf(cause.getMessage());
        JMSException jms;
        if (cause instanceof RemotingCommandException command) {
            jms = switch (command.status()) {
                case ErrorStatus.SUBSCRIPTION_CONFLICT -> new IllegalStateException(message);
                case ErrorStatus.UNKNOWN_DESTINATION, ErrorStatus.NOT_FOUND -> new InvalidDestinationException(message);
                case ErrorStatus.STORE_FULL -> new ResourceAllocationException(message);
                case ErrorStatus.CLIENT_ID_IN_USE -> new InvalidClientIDException(message);
                case ErrorStatus.TRANSACTION_ROLLED_BACK -> new TransactionRolledBackException(message);
                case ErrorStatus.AUTHENTICATION_FAILED -> new JMSSecurityException(message);
                default -> new JMSException(message, Integer.toString(command.status()));
            };
        } else if (cause instanceof RemotingConnectionException) {
            jms = new JMSException("connection failure: " + message);
        } else {
            jms = new JMSException(message);
        }
        return linked(jms, cause);
    }

    private static JMSException linked(JMSException jms, Throwable cause) {
        if (cause instanceof Exception e) {
            jms.setLinkedException(e);
        }
        jms.initCause(cause);
        return jms;
    }
}
