package io.ramjet.provider.client;

import io.ramjet.protocol.command.DestinationKind;
import io.ramjet.protocol.command.MessagePosition;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The one interface between the JMS façade and the wire: everything a connection asks of the
 * brokers, in terms of info objects, never JMS objects. Futures fail with a
 * {@code RemotingException} (see {@link ClientErrors} for the JMS exception of each). One
 * instance per JMS connection, since the broker ties temporary destinations to the transport
 * connection. Thread-safe.
 */
public interface RamjetClient extends AutoCloseable {

    /** Sends one message to the queue the producer sticks to ({@code queueChoice}, reduced modulo the queue count). */
    CompletableFuture<Void> send(OutgoingMessage message, int queueChoice);

    /**
     * Attaches a consumer; completes, once the broker has created or joined its subscription,
     * with the consumer as attached to its broker: what the other consumer calls take.
     */
    CompletableFuture<ConsumerInfo> subscribe(ConsumerInfo consumer);

    /** Up to {@code maxMessages} messages; the broker holds the request up to {@code holdMillis} when none is there. */
    CompletableFuture<List<Delivery>> pull(ConsumerInfo consumer, int maxMessages, long holdMillis);

    CompletableFuture<Void> ack(ConsumerInfo consumer, List<MessagePosition> positions);

    CompletableFuture<Void> release(ConsumerInfo consumer, MessagePosition position, boolean countDelivery,
                                    boolean excludeConsumer);

    /** Detaches the consumer; what it still holds becomes visible with the delivery counted. */
    CompletableFuture<Void> closeConsumer(ConsumerInfo consumer);

    /** Deletes a durable subscription on every broker that has it. */
    CompletableFuture<Void> deleteSubscription(String clientId, String name);

    CompletableFuture<Void> createTemporaryDestination(String name, DestinationKind kind);

    CompletableFuture<Void> deleteDestination(String name, DestinationKind kind);

    /**
     * Registers what to tell when a transport connection to a broker is lost while this client
     * is open: the broker's address, on an I/O thread that must not block.
     */
    void onBrokerConnectionLost(Consumer<String> listener);

    /** Closes the transport: the broker drops this connection's consumers and temporary destinations. */
    @Override
    void close();
}
