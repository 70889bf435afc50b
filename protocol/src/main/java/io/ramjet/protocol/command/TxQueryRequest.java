package io.ramjet.protocol.command;

/**
 * Header of {@link CommandCode#TX_QUERY}, participant broker to coordinator broker: the owner
 * of a prepared transaction is gone, what was decided? The coordinator answers
 * {@link TxStateResponse}: COMMITTED or ROLLED_BACK as recorded; OPEN while the owner is still
 * connected to it; and for a transaction it has no decision for and no live owner, it records a
 * rollback first (presumed abort, so a late commit is refused) and answers ROLLED_BACK.
 *
 * @param transactionId the transaction
 */
public record TxQueryRequest(long transactionId) {
}
