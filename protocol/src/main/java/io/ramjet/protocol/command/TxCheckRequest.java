package io.ramjet.protocol.command;

/**
 * Header of {@link CommandCode#TX_CHECK}, broker to client: the broker holds half records (or a
 * prepared vote) of this transaction older than its check timeout and asks the connection that
 * owns it for its state. Answered with {@link TxStateResponse}.
 *
 * @param transactionId the transaction
 */
public record TxCheckRequest(long transactionId) {
}
