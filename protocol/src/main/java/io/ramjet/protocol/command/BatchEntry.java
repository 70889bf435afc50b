package io.ramjet.protocol.command;

/**
 * One message of a {@link SendBatchRequest}: the per-message fields of {@link SendRequest}
 * plus its length in the batch body, where its bytes (properties section, then body) follow
 * those of the entry before it.
 *
 * @param queueId          the message queue the producer chose, below the destination's queue count
 * @param persistent       PERSISTENT: the batch is answered once this message is durable
 * @param deliveryTime     earliest delivery, epoch ms, 0 for at once
 * @param expiration       JMSExpiration, epoch ms, 0 for never
 * @param propertiesLength how many of its leading bytes are the properties section
 * @param length           its bytes in the batch body: properties section plus body
 */
public record BatchEntry(int queueId, boolean persistent, long deliveryTime, long expiration, int propertiesLength,
                         int length) {

    public BatchEntry {
        if (queueId < 0) {
            throw new IllegalArgumentException("queueId " + queueId);
        }
        if (propertiesLength < 0 || length < propertiesLength) {
            throw new IllegalArgumentException("propertiesLength " + propertiesLength + " of length " + length);
        }
    }
}
