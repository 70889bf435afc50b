package io.ramjet.server.broker.delivery;

import io.ramjet.model.record.MessageRecordView;
import io.ramjet.protocol.message.MessagePropertiesCodec;

/**
 * Whether a stored message has expired, from JMSExpiration in its record's header section
 * ({@link MessagePropertiesCodec#expiration}, read in place). A section of another version or
 * none at all means "never expires".
 */
final class MessageExpiration {

    private MessageExpiration() {
    }

    /** JMSExpiration in epoch ms, 0 for never. */
    static long of(MessageRecordView record) {
        return MessagePropertiesCodec.expiration(record.properties());
    }

    static boolean expired(MessageRecordView record, long now) {
        long expiration = of(record);
        return expiration != 0 && expiration <= now;
    }
}
