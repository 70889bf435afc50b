package io.ramjet.protocol.command;

/**
 * Header of PARKED_QUERY: does the asked group hold message {@code sequence} of idempotent
 * producer {@code producerId}?
 */
public record ParkedQueryRequest(long producerId, long sequence) {

    public ParkedQueryRequest {
        if (producerId == 0 || sequence < 1) {
            throw new IllegalArgumentException("producer " + producerId + " sequence " + sequence);
        }
    }
}
