package io.ramjet.server.broker.delivery;

import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.protocol.record.MessageRecordView;

import java.nio.ByteBuffer;

/**
 * Reads JMSExpiration from a record's header section without decoding the rest: the fixed
 * part of the {@link MessagePropertiesCodec} layout is version, body type, delivery mode and
 * priority (one byte each), then JMSTimestamp and JMSExpiration (longs). A section of another
 * version or none at all means "never expires".
 */
final class MessageExpiration {

    private static final int EXPIRATION_OFFSET = 4 + 8;
    private static final int FIXED_LENGTH = 4 + 3 * 8 + 1;

    private MessageExpiration() {
    }

    /** JMSExpiration in epoch ms, 0 for never. */
    static long of(MessageRecordView record) {
        ByteBuffer section = record.properties();
        if (section.remaining() < FIXED_LENGTH || section.get(0) != MessagePropertiesCodec.VERSION) {
            return 0;
        }
        return section.getLong(EXPIRATION_OFFSET);
    }

    static boolean expired(MessageRecordView record, long now) {
        long expiration = of(record);
        return expiration != 0 && expiration <= now;
    }
}
