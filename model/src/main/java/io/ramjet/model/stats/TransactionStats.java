package io.ramjet.model.stats;

import java.util.Objects;

/**
 * One transaction a broker holds: a local one still open, or one prepared (a participant of a
 * transaction over several brokers, or an XA branch waiting for its transaction manager). A
 * prepared XA branch is decided with the command {@code TX_END} naming its xid.
 *
 * @param xid         the XA branch ({@link io.ramjet.model.XidCodec} form), "" for a local transaction
 * @param status      OPEN, PREPARING, PREPARED, ...
 * @param owner       the connection that owns it, null when none does (after a restart, or lost)
 * @param coordinator the broker that records the decision for a transaction over several, "" for none
 * @param messages    messages sent in it (half records)
 * @param acks        messages consumed in it, acknowledged when it commits (counted once prepared)
 * @param since       when it first left a trace on this broker, epoch ms
 */
public record TransactionStats(long id, String xid, String status, String owner, String coordinator, int messages,
                               int acks, long since) {

    public TransactionStats {
        Objects.requireNonNull(xid, "xid");
        Objects.requireNonNull(status, "status");
    }
}
