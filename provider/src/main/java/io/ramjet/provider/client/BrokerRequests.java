package io.ramjet.provider.client;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.MessagePosition;
import io.ramjet.model.TxState;
import java.util.List;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.LongFunction;

/**
 * What a connection asks of the brokers that needs no policy above one request: the part that
 * {@link RamjetClient} (the façade's seam) and {@link BrokerClient} (the transport under the
 * failover policy) share. Futures fail only with a {@link ClientException}, which says whether
 * the request may have taken effect. Thread-safe.
 */
public interface BrokerRequests extends AutoCloseable {

    /**
     * Completes once a NameServer answered; fails, as {@link ClientException.Reason#UNREACHABLE}
     * or {@link ClientException.Reason#TIMEOUT}, when none did within the request timeout.
     */
    CompletableFuture<Void> connect();

    /**
     * Acknowledges messages delivered to this attachment; fails with
     * {@link ClientException.Reason#NOT_HELD} for those it no longer holds (they come back redelivered).
     */
    CompletableFuture<Void> ack(ConsumerInfo consumer, List<MessagePosition> positions);

    /**
     * As {@link #ack}, answered once the broker applied and wrote the acknowledgement, not once
     * it is durable: for AUTO and DUPS_OK acknowledgements, whose loss in a broker crash means
     * at most a redelivery. A broker that does not know the difference gives the durable answer.
     */
    default CompletableFuture<Void> lazyAck(ConsumerInfo consumer, List<MessagePosition> positions) {
        return ack(consumer, positions);
    }

    /**
     * Makes messages delivered to this attachment visible again in one request, their delivery
     * counted or not (prefetched messages the application never saw); those of one message queue
     * become visible at once, so they come back in their queue order before any later message.
     * One it no longer holds is left alone.
     */
    CompletableFuture<Void> release(ConsumerInfo consumer, List<MessagePosition> positions, boolean countDelivery);

    /**
     * Detaches the consumer: what it holds and the application never saw becomes visible again
     * uncounted; {@code kept}, what its session consumed and still has to acknowledge, commit or
     * roll back, stays delivered to it.
     */
    CompletableFuture<Void> closeConsumer(ConsumerInfo consumer, List<MessagePosition> kept);

    /** Deletes a durable subscription on every broker that has it. */
    CompletableFuture<Void> deleteSubscription(String clientId, String name);

    /** Creates a temporary destination, named by the broker: completes with its name. */
    CompletableFuture<String> createTemporaryDestination(DestinationKind kind);

    CompletableFuture<Void> deleteDestination(String name, DestinationKind kind);

    /**
     * Registers what to tell when a transport connection to a broker is lost while this client
     * is open: the broker's address and why the connection closed, on an I/O thread that must
     * not block (so never an application callback).
     */
    void onBrokerConnectionLost(BiConsumer<String, String> listener);

    /**
     * Phase one of a transaction on one broker ({@code host:port}); completes once the vote is
     * durable. {@code xid} is the XA branch ({@code XidCodec} form) or "" for a local transaction;
     * {@code coordinator} is the broker a participant asks once this client is gone ("" for XA);
     * {@code consumed}, what the transaction consumed from that broker.
     */
    CompletableFuture<Void> prepareTransaction(String brokerAddress, long transactionId, String xid,
                                               String coordinator, List<ConsumedMessages> consumed);

    /**
     * The decision for a transaction on one broker; completes once it is durable. A transaction id
     * of 0 names an XA branch by its xid alone (recovery), which fails with
     * {@link ClientException.Reason#UNKNOWN_TRANSACTION} where the broker has no trace of it.
     * {@code consumed}: what the transaction consumed from that broker not named at prepare.
     */
    CompletableFuture<Void> endTransaction(String brokerAddress, long transactionId, String xid, boolean commit,
                                           List<ConsumedMessages> consumed);

    /**
     * Commits a local transaction that lives on {@code brokerAddress} alone, sent behind its
     * sends without waiting for their answers: the broker takes it after every send this client
     * handed to the same connection before, and commits only if it holds exactly {@code halves}
     * messages of the transaction; else it rolls back and the future fails as
     * {@link ClientException.Reason#ROLLED_BACK}. Completes once the commit is durable.
     */
    CompletableFuture<Void> commitCounted(String brokerAddress, long transactionId, int halves,
                                          List<ConsumedMessages> consumed);

    /** The XA branches prepared on every live master broker, in {@code XidCodec} form, each once. */
    CompletableFuture<List<String>> recoverXids();

    /** Addresses of every live master broker. */
    CompletableFuture<List<String>> masterAddresses();

    /**
     * How to answer a broker's TX_CHECK for a transaction of this connection; called on an I/O
     * thread, so it must not block. Until one is given every check is answered UNKNOWN.
     */
    void answerTransactionChecks(LongFunction<TxState> states);

    /**
     * Addresses of every master broker that hosts the destination, asked afresh; the destination
     * is created on the first live master when none does. A consumer reads from all of them.
     */
    CompletableFuture<List<String>> brokersOf(String destination, DestinationKind kind);

    /**
     * Addresses of the masters this client already routes the destination to (a route it looked
     * up before, for a producer say), without asking anyone; empty when it knows none.
     */
    default List<String> knownBrokersOf(String destination, DestinationKind kind) {
        return List.of();
    }

    /**
     * One page of at most {@code maxMessages} of a queue's messages on one broker, from a position
     * (0, 0 for the first page), claiming nothing; {@code selector} may be null.
     */
    CompletableFuture<BrowsePage> browse(String brokerAddress, String queue, String selector, int queueId,
                                         long fromOffset, int maxMessages);

    /**
     * Authenticates with the connection's credentials on every live master (a broker connected to
     * later is authenticated as the connection opens, before any other request goes on it);
     * fails with {@link ClientException.Reason#SECURITY} when one refuses them.
     */
    CompletableFuture<Void> authenticate();

    /**
     * Claims the client id for this connection on every live master; fails with
     * {@link ClientException.Reason#CLIENT_ID_IN_USE} when another connection holds it, having given back
     * what the other brokers granted. The brokers hold the claim until {@link #releaseClientId}
     * or until this client's transport closes; a broker this client connects to later (one that
     * joined or restarted) is told the claim on connection.
     */
    CompletableFuture<Void> claimClientId(String clientId);

    /** Gives a claimed client id back on every live master. */
    CompletableFuture<Void> releaseClientId(String clientId);

    /** Closes the transport: the broker drops this connection's consumers and temporary destinations. */
    @Override
    void close();


    /**
     * The bytes of one chunk of a large message ({@code LargeBodyDescriptor}) that the broker at
     * {@code brokerAddress} holds: the chunk at {@code physicalOffset} of upload {@code uploadId},
     * read with the consume or browse right on {@code destination}. They are copied into
     * {@code into} where they fit (so a reader reuses its arrays), else into a new array: the
     * answer wraps the array that holds them, from its index 0 to the chunk's length.
     *
     * @param into the array to fill, or null for a new one
     */
    CompletableFuture<ByteBuffer> readChunk(String brokerAddress, String destination, long uploadId,
                                            long physicalOffset, byte[] into);
}
