package io.ramjet.server.broker.error;

/**
 * A refusal of the broker's domain: what was asked is not done, for the {@link #refusal()}
 * reason, and the message says why in words for the client. Unchecked, so that it crosses
 * futures and lambdas; the methods that throw it say so.
 */
public final class BrokerException extends RuntimeException {

    private final Refusal refusal;

    public BrokerException(Refusal refusal, String message) {
        super(message);
        this.refusal = refusal;
    }

    public Refusal refusal() {
        return refusal;
    }
}
