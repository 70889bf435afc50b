package io.ramjet.provider.jms.transaction;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.provider.client.OutgoingMessage;
import io.ramjet.provider.message.MessageCodec;
import io.ramjet.provider.message.RamjetTextMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import java.util.UUID;

/** Text messages encoded for the client layer, for tests that drive it below the JMS API. */
final class RawMessages {

    private RawMessages() {
    }

    static OutgoingMessage text(String queue, String text) throws JMSException {
        RamjetTextMessage m = new RamjetTextMessage(text);
        m.setJMSDeliveryMode(DeliveryMode.PERSISTENT);
        m.setJMSPriority(4);
        m.setJMSTimestamp(System.currentTimeMillis());
        m.setJMSMessageID("ID:raw-" + UUID.randomUUID());
        return new OutgoingMessage(queue, DestinationKind.QUEUE, true, 0, 0,
                MessagePropertiesCodec.encode(MessageCodec.headersOf(m)), MessageCodec.encode(m).body());
    }
}
