package io.ramjet.provider.jms.error;

import io.ramjet.provider.client.ClientException;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.TransactionRolledBackException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The JMS exception the specification names for each {@link ClientException}: the one place
 * the façade chooses them (the XA part chooses its {@code XAException} codes the same way). The
 * error code of a plain {@link JMSException} is the client's reason.
 *
 * <p>A request that did not run for want of something the provider needs (room in the store, a
 * broker it can reach, one not too busy, enough in-sync replicas) is a
 * {@link ResourceAllocationException}; a message a broker would not take for itself (its size, its
 * form) is the {@link MessageFormatException} {@code send} names for an invalid message. A request
 * whose outcome is unknown (no answer in time, the connection lost on the way) stays a plain
 * {@link JMSException}: no narrower type is true of it.
 */
public final class JmsErrors {

    private JmsErrors() {
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

    /** The JMS exception of a failed client operation (a JMS exception already is its own). */
    public static JMSException toJms(Throwable failure) {
        Throwable cause = failure;
        while (!(cause instanceof ClientException) && !(cause instanceof JMSException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof JMSException jms) {
            return jms;
        }
        ClientException client = ClientException.of(failure);
        String message = String.valueOf(client.getMessage());
        JMSException jms = switch (client.reason()) {
            case CONFLICT -> new IllegalStateException(message);
            case NOT_FOUND -> new InvalidDestinationException(message);
            case RESOURCE, UNREACHABLE, BUSY, TOO_FEW_REPLICAS -> new ResourceAllocationException(message);
            case INVALID_MESSAGE -> new MessageFormatException(message);
            case CLIENT_ID_IN_USE -> new InvalidClientIDException(message);
            case ROLLED_BACK -> new TransactionRolledBackException(message);
            case SECURITY -> new JMSSecurityException(message);
            default -> new JMSException(message, client.reason().name());
        };
        return linked(jms, client);
    }

    private static JMSException linked(JMSException jms, Throwable cause) {
        if (cause instanceof Exception e) {
            jms.setLinkedException(e);
        }
        jms.initCause(cause);
        return jms;
    }
}
