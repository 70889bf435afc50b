package io.ramjet.protocol.command;

import java.util.List;

/**
 * Header of {@link CommandCode#TX_COMMIT_COUNTED}: the commit of a local transaction that lives
 * on this broker alone, sent behind the transaction's sends without waiting for their answers.
 * The broker ends the transaction only after the SENDs that came before it on the connection,
 * and commits only if it holds exactly {@code halves} half records of the transaction: a send
 * it refused or never received leaves fewer, and then it rolls the transaction back and answers
 * {@link ErrorStatus#TRANSACTION_ROLLED_BACK}. So a commit that succeeds holds every message the
 * client sent in it, whatever became of the sends' own answers. Otherwise as a committing
 * {@link TxEndRequest}, answered once durable.
 *
 * @param transactionId the transaction, nonzero
 * @param halves        how many messages the client sent to this broker in the transaction
 * @param acks          the messages consumed from this broker
 */
public record TxCommitCountedRequest(long transactionId, int halves, List<AckRequest> acks) {

    public TxCommitCountedRequest {
        if (halves < 0) {
            throw new IllegalArgumentException("halves " + halves);
        }
        acks = List.copyOf(acks);
    }
}
