package io.ramjet.provider.jms;

import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.RamjetClient;
import io.ramjet.provider.destination.RamjetDestination;
import io.ramjet.provider.message.RamjetMessage;
import jakarta.jms.JMSException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What of a delivery a consumer's application sees: its message decoded, with its destination
 * and redelivery flags, or nothing when it must never see it (undecodable: released; expired, or
 * the connection's own with noLocal: acknowledged). The broker evaluates the selector exactly:
 * what it sends matches. Runs on the thread that takes the message.
 */
final class MessageAdmission {

    private static final Logger LOG = LoggerFactory.getLogger(MessageAdmission.class);

    private final RamjetSession session;
    private final RamjetClient client;
    private final ConsumerInfo info;
    private final RamjetDestination destination;
    private final ConsumerCalls calls;

    MessageAdmission(RamjetSession session, ConsumerInfo info, RamjetDestination destination, ConsumerCalls calls) {
        this.session = session;
        this.client = session.connection().client();
        this.info = info;
        this.destination = destination;
        this.calls = calls;
    }

    /** The message of a delivery if the application is to see it; null when it is dropped as it is taken. */
    RamjetMessage admit(Delivery delivery) {
        ConsumerInfo at = delivery.consumer();
        RamjetMessage message;
        try {
            message = ReceivedMessages.decode(client, session.connection().chunkArrays(), at.brokerAddress(),
                    at.subscription().destination(), delivery, session.connection().info().allowList());
            message.setJMSDestination(destination);
            message.setJMSRedelivered(delivery.deliveryCount() > 1);
            message.setDeliveryCount(delivery.deliveryCount());
        } catch (JMSException e) {
            LOG.warn("consumer {} of {}: undecodable message at {}, released", info.consumerId(), destination,
                    delivery.position(), e);
            calls.logFailure(client.release(at, List.of(delivery.position()), true), "release");
            return null;
        }
        long expiration = message.getJMSExpiration();
        boolean expired = expiration != 0 && expiration <= System.currentTimeMillis();
        boolean ownMessage = info.noLocal() && session.connection().info().connectionId()
                .equals(message.getObjectProperty(RamjetMessageConsumer.CONNECTION_ID_PROPERTY));
        if (expired || ownMessage) {
            calls.logFailure(client.ack(at, List.of(delivery.position())), "ack");
            return null;
        }
        if (session.acknowledgement().isClientAcknowledge()) {
            message.setAcknowledger(session::acknowledge);
        }
        return message;
    }
}
