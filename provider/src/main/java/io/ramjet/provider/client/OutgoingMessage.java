package io.ramjet.provider.client;

import io.ramjet.model.DestinationKind;
import java.io.InputStream;
import java.util.Objects;

/**
 * A message ready for the wire: where it goes, its broker-visible attributes and its bytes.
 * Every resend of it carries the same value, so the same producer id and sequence: the broker
 * stores it once (the idempotent producer).
 *
 * @param producerId the idempotent producer that sends it ({@link ProducerIds}), 0 for none; a
 *                   transactional send goes without it whatever it says here
 * @param sequence   its number from that producer: 1, 2, ... in the order the producer sent
 * @param bodyStream the body as a stream the application gave (read once, as the message is sent
 *                   as a large message), or null when the body is {@code body}
 */
public record OutgoingMessage(String destination, DestinationKind kind, boolean persistent, long deliveryTime,
                              long expiration, byte[] properties, byte[] body, long producerId, long sequence,
                              InputStream bodyStream) {

    public OutgoingMessage(String destination, DestinationKind kind, boolean persistent, long deliveryTime,
                           long expiration, byte[] properties, byte[] body, long producerId, long sequence) {
        this(destination, kind, persistent, deliveryTime, expiration, properties, body, producerId, sequence, null);
    }

    public OutgoingMessage {
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(kind, "kind");
        if (producerId != 0 && sequence < 1) {
            throw new IllegalArgumentException("sequence " + sequence + " of producer " + producerId);
        }
    }

    /** A message from no idempotent producer: the broker stores every send of it. */
    public OutgoingMessage(String destination, DestinationKind kind, boolean persistent, long deliveryTime,
                           long expiration, byte[] properties, byte[] body) {
        this(destination, kind, persistent, deliveryTime, expiration, properties, body, 0, 0);
    }

    /**
     * The same message without its producer: for a resend to another broker group than the one
     * it was sent to, whose table says nothing of this message but may hold a later one of the
     * same producer (which would hide this one): such a resend may store it twice, never lose it.
     */
    /** This message as sent by producer {@code newProducerId}, with its sequence. */
    public OutgoingMessage withProducer(long newProducerId) {
        return new OutgoingMessage(destination, kind, persistent, deliveryTime, expiration, properties, body,
                newProducerId, sequence, bodyStream);
    }

    public OutgoingMessage withoutProducer() {
        return new OutgoingMessage(destination, kind, persistent, deliveryTime, expiration, properties, body, 0, 0,
                bodyStream);
    }
}
