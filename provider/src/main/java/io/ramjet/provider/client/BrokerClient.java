package io.ramjet.provider.client;

import io.ramjet.model.DestinationKind;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Brokers as a transport reaches them: each request goes once to one broker, with no retry,
 * resubscription or rediscovery; {@link FailoverRamjetClient} adds those. Route lookups are
 * cached per destination by broker group; {@link #followMaster} and {@link #routeAround} move
 * them. Futures fail only with a {@link ClientException}. One instance per JMS connection, since
 * the broker ties temporary destinations to the transport connection. Thread-safe.
 */
public interface BrokerClient extends BrokerRequests {

    /**
     * Sends one message, once, to the queue the producer sticks to ({@code queueChoice}, reduced
     * modulo the queue count of the masters that serve the destination). {@code transactionId} 0
     * sends outside a transaction; another value keeps the message as a half record of that
     * transaction until it ends. {@code touching} is told the broker's address once the message
     * is handed to that broker's connection, or once that connection failed to open.
     */
    CompletableFuture<Void> send(OutgoingMessage message, int queueChoice, long transactionId,
                                 Consumer<String> touching);

    /**
     * Sends one message outside a transaction, once, to the master of the broker group
     * {@code brokerName} as the NameServers name it now, whatever the cached routes say: a resend
     * that the group's idempotent producer check must see. Fails as unreachable when no writable
     * master of the group serves the destination.
     */
    CompletableFuture<Void> sendToGroup(OutgoingMessage message, String brokerName, int queueChoice,
                                        Consumer<String> touching);

    /**
     * Sends an idempotent producer's message that the master of group {@code originGroup} may
     * have stored (written, no answer) as a parked send to a live master of another group of the
     * destination, which keeps it undelivered until the origin group says whether it holds it.
     * Fails as unreachable, certainly not applied, when the destination lives on no other live
     * group, or the message has no producer id or travels as a large message.
     */
    default CompletableFuture<Void> parkedSend(OutgoingMessage message, String originGroup, int queueChoice) {
        return CompletableFuture.failedFuture(new ClientException(ClientException.Reason.UNREACHABLE,
                ClientException.Outcome.CERTAINLY_NOT_APPLIED, "this client parks no sends", null));
    }

    /**
     * Looks the destination's route up again without {@code failedBroker} and keeps it, so that
     * the producers' sends move away from a broker that failed and stay where they moved; when
     * no other master serves it, it is created on another live one.
     */
    void routeAround(String destination, DestinationKind kind, String failedBroker);

    /** The broker group (broker name) a send with this queue choice goes to now. */
    CompletableFuture<String> groupOf(String destination, DestinationKind kind, int queueChoice);

    /**
     * Asks the NameServers for the group's master now and, when they name one, points the cached
     * routes of the group at it (so the producers' queue choices keep naming the same group);
     * completes with that master's address, or null when no master of the group is registered.
     */
    CompletableFuture<String> followMaster(String brokerName);

    /**
     * The broker group (broker name) of the broker at that address, as this client last saw it
     * listed (so still known once the address is gone); null when it never saw it.
     */
    CompletableFuture<String> groupAt(String address);

    /**
     * Attaches a consumer on the broker it names ({@link ConsumerInfo#brokerAddress()}), or on
     * the first one serving its destination when it names none; completes, once the broker has
     * created or joined its subscription, with the consumer as attached to that broker: what the
     * other consumer calls take. Each attachment has a consumer id of its own, so deliveries of
     * an earlier attachment (before a broker restart or a lost connection) can never be
     * acknowledged as if they were the new ones'.
     */
    CompletableFuture<ConsumerInfo> subscribe(ConsumerInfo consumer);

    /** Up to {@code maxMessages} messages; the broker holds the request up to {@code holdMillis} when none is there. */
    CompletableFuture<List<Delivery>> pull(ConsumerInfo consumer, int maxMessages, long holdMillis);

    /**
     * A round trip to the consumer's broker that takes nothing: keeps a consumer with no pull out
     * in touch with its broker, so that the broker's loss is seen, and a connection lost is made
     * again (telling the broker the connection's client id), without a pull. Fails as a pull
     * would when the broker cannot be reached.
     */
    default CompletableFuture<Void> touch(ConsumerInfo consumer) {
        return CompletableFuture.completedFuture(null);
    }
}
