package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * Header of {@link CommandCode#SEND}. The frame body is the message's encoded properties
 * section ({@code propertiesLength} bytes) followed by its body bytes; the broker stores both
 * as they are in one NORMAL record, with the tag signature it computes from the properties
 * section (a client cannot choose it).
 *
 * @param destination      queue or topic name
 * @param kind             queue or topic
 * @param queueId          the message queue the producer chose, below the destination's queue count
 * @param persistent       PERSISTENT: the response comes once the record is durable
 * @param deliveryTime     earliest delivery, epoch ms, 0 for at once
 * @param expiration       JMSExpiration, epoch ms, 0 for never
 * @param propertiesLength how many leading body bytes are the properties section
 * @param transactionId    0 for a plain send; else the transaction the message belongs to: it is
 *                         stored as a half (PREPARED) record, invisible until {@link TxEndRequest}
 *                         commits it, and the response has queue offset -1
 * @param producerId       the idempotent producer sending it, 0 for none (always 0 with a
 *                         transaction id): the broker stores a message from a producer only if its
 *                         sequence is above the last one it stored from that producer, and answers
 *                         any other as sent without storing it
 * @param sequence         the message's number from {@code producerId} (1, 2, ...), the same on
 *                         every resend of it; 0 without a producer
 */
public record SendRequest(String destination, DestinationKind kind, int queueId, boolean persistent,
                          long deliveryTime, long expiration, int propertiesLength, long transactionId,
                          long producerId, long sequence) {

    /** A send outside any transaction, from no idempotent producer. */
    public SendRequest(String destination, DestinationKind kind, int queueId, boolean persistent,
                       long deliveryTime, long expiration, int propertiesLength) {
        this(destination, kind, queueId, persistent, deliveryTime, expiration, propertiesLength, 0);
    }

    /** A send from no idempotent producer. */
    public SendRequest(String destination, DestinationKind kind, int queueId, boolean persistent,
                       long deliveryTime, long expiration, int propertiesLength, long transactionId) {
        this(destination, kind, queueId, persistent, deliveryTime, expiration, propertiesLength, transactionId,
                0, 0);
    }

    public SendRequest {
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(kind, "kind");
        if (queueId < 0) {
            throw new IllegalArgumentException("queueId " + queueId);
        }
        if (propertiesLength < 0) {
            throw new IllegalArgumentException("propertiesLength " + propertiesLength);
        }
        if (producerId != 0 && (transactionId != 0 || sequence < 1)) {
            throw new IllegalArgumentException("producer " + producerId + " with sequence " + sequence
                    + " in transaction " + transactionId);
        }
    }
}
