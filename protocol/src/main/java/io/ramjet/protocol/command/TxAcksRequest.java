package io.ramjet.protocol.command;

import java.util.List;

/**
 * Header of {@link CommandCode#TX_ACKS}: messages an open transaction consumed from this broker,
 * sent ahead of its {@link TxPrepareRequest} or {@link TxEndRequest} when they do not fit that
 * one frame. The broker keeps them with the transaction, in memory only, and adds them to what
 * the prepare or the commit names; nothing is written or acknowledged until then, so a
 * transaction whose decision never comes (a crash, a lost connection, a rollback) acknowledges
 * none of them. Only the transaction's owner may add to it; a transaction already preparing,
 * prepared or ending refuses more.
 *
 * @param transactionId the open transaction (not 0)
 * @param acks          what it consumed, by consumer attachment
 */
public record TxAcksRequest(long transactionId, List<AckRequest> acks) {

    public TxAcksRequest {
        acks = List.copyOf(acks);
    }
}
