package io.ramjet.protocol.command;

import java.util.List;
import java.util.Objects;

/**
 * Header of {@link CommandCode#TX_END}: the decision for a transaction on one broker. Commit
 * writes one COMMIT record that makes the transaction's half records visible and applies its
 * acknowledgements (those of an earlier {@link TxPrepareRequest} and those listed here),
 * atomically, answered once durable. Rollback writes a ROLLBACK record; the half records never
 * become visible and the consumed messages listed (here or at prepare) are released with their
 * delivery counted, so they come back with {@code JMSRedelivered=true}.
 *
 * <p>Ending a local transaction the broker has no trace of is a success (it did nothing here);
 * ending an XA branch known only by its xid that the broker has no trace of answers
 * {@link ErrorStatus#UNKNOWN_TRANSACTION} (XAER_NOTA). Committing one the broker already rolled back (check-back, lost owner, presumed abort)
 * fails with {@link ErrorStatus#TRANSACTION_ROLLED_BACK}; repeating a decision already applied
 * succeeds, so a transaction manager may retry.
 *
 * @param transactionId the transaction; 0 when only the xid is known (XA recovery)
 * @param xid           the XA branch ({@link io.ramjet.model.XidCodec} form), or "" for a local transaction
 * @param commit        commit, else roll back
 * @param acks          the messages consumed from this broker not already named at prepare
 */
public record TxEndRequest(long transactionId, String xid, boolean commit, List<AckRequest> acks) {

    public TxEndRequest {
        Objects.requireNonNull(xid, "xid");
        acks = List.copyOf(acks);
    }
}
