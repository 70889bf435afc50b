package io.ramjet.protocol.command;

/**
 * One message of a {@link PullResponse}. Its record (layout of {@code MessageRecordDescriptor})
 * is the next {@code recordSize} bytes of the response body.
 *
 * @param queueId       its message queue
 * @param queueOffset   its offset there: what ACK and RELEASE_BATCH name
 * @param deliveryCount JMSXDeliveryCount; JMSRedelivered is {@code deliveryCount > 1}
 * @param recordSize    bytes of its record in the body
 */
public record PulledMessage(int queueId, long queueOffset, int deliveryCount, int recordSize) {
}
