package io.ramjet.provider.jms;

import io.ramjet.model.record.LargeBodyDescriptor;
import io.ramjet.provider.client.BrokerRequests;
import io.ramjet.provider.client.ChunkArrays;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.LargeBodyStream;
import io.ramjet.provider.message.MessageCodec;
import io.ramjet.provider.message.RamjetMessage;
import io.ramjet.provider.message.SerializationAllowList;
import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;

/**
 * The message a delivery carries, for a consumer or a browser: decoded from its bytes, or, for a
 * large message, from its header section with a body read from its broker in chunks
 * ({@link LargeBodyStream}).
 */
final class ReceivedMessages {

    private ReceivedMessages() {
    }

    /**
     * @param arrays      the connection's arrays a large body is read into
     * @param address     the broker the delivery came from
     * @param destination the queue or topic name it was received or browsed from
     */
    static RamjetMessage decode(BrokerRequests client, ChunkArrays arrays, String address, String destination,
                                Delivery d, SerializationAllowList allowList) throws JMSException {
        if (!d.large()) {
            return MessageCodec.decode(d.properties(), d.body(), allowList);
        }
        LargeBodyDescriptor.Table table;
        try {
            table = LargeBodyDescriptor.decode(d.body());
        } catch (IllegalArgumentException e) {
            throw new MessageFormatException("undecodable large message: " + e.getMessage());
        }
        return MessageCodec.decodeLarge(d.properties(), table.bodyLength(),
                () -> LargeBodyStream.open(client, arrays, address, destination, table), allowList);
    }
}
