package io.ramjet.server.broker.record;

import io.ramjet.model.record.MessageRecordView;
import io.ramjet.protocol.message.MessagePropertiesCodec;

/**
 * A half (PREPARED) record of a transaction, as much of it as its commit needs: where it lies,
 * which queue it enters and with which tag signature, and when it may be delivered or expires;
 * the form COMMIT records and the snapshot's transaction section hold it in.
 *
 * @param physicalOffset the record's CommitLog offset
 * @param size           its total size
 * @param destination    the destination's storage name
 * @param queueId        the message queue the producer chose
 * @param tagSignature   its tag signature, for the ConsumeQueue entry
 * @param deliveryTime   earliest delivery, epoch ms, 0 for at once
 * @param bornTimestamp  when the producer created it
 * @param expiration     JMSExpiration, epoch ms, 0 for never
 */
public record Half(long physicalOffset, int size, String destination, int queueId, long tagSignature,
                   long deliveryTime, long bornTimestamp, long expiration) {

    public static Half of(MessageRecordView record) {
        return new Half(record.physicalOffset(), record.totalSize(), record.destination(), record.queueId(),
                record.tagSignature(), record.deliveryTime(), record.bornTimestamp(),
                MessagePropertiesCodec.expiration(record.properties()));
    }

    public boolean expired(long now) {
        return expiration != 0 && expiration <= now;
    }

    public boolean delayed(long now) {
        return deliveryTime > now;
    }
}
