package io.ramjet.protocol.command;

import java.util.List;
import java.util.Objects;

/**
 * Header of {@link CommandCode#TX_PREPARE}: phase one on a participant broker. The broker writes,
 * durably, that the transaction's half records and the acknowledgements listed here wait for a
 * decision, and answers once that is on disk. From then on it never decides alone: a local
 * transaction's outcome comes from {@link TxEndRequest}, from the owning connection's answer to
 * {@link TxCheckRequest}, or, when that connection is gone, from the coordinator
 * ({@link TxQueryRequest}); an XA branch waits for its transaction manager.
 *
 * @param transactionId the transaction, as in {@link SendRequest#transactionId()}
 * @param xid           the XA branch ({@link io.ramjet.model.XidCodec} form), or "" for a local transaction
 * @param coordinator   address ({@code host:port}) of the coordinator broker to ask if the owner
 *                      is gone; "" for an XA branch
 * @param acks          the messages the transaction consumed from this broker, by subscription
 */
public record TxPrepareRequest(long transactionId, String xid, String coordinator, List<AckRequest> acks) {

    public TxPrepareRequest {
        Objects.requireNonNull(xid, "xid");
        Objects.requireNonNull(coordinator, "coordinator");
        acks = List.copyOf(acks);
    }
}
