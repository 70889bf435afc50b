package io.ramjet.protocol.command;

import io.ramjet.model.DestinationKind;

import java.util.Objects;

/**
 * One parked send a broker holds: message {@code sequence} of idempotent producer
 * {@code producerId}, which group {@code group}'s lost master may have stored, kept here as a
 * prepared transaction until that group answers or an operator decides.
 *
 * @param transactionId the transaction that holds it
 * @param kind          its destination's kind, null while its message has not arrived
 * @param destination   where it is to be delivered, null while its message has not arrived (only
 *                      its vote is here: the client's resend brings the message)
 * @param since         when it first left a trace on this broker, epoch ms
 */
public record ParkedSendStats(String group, long producerId, long sequence, long transactionId, DestinationKind kind,
                              String destination,
                              long since) {

    public ParkedSendStats {
        Objects.requireNonNull(group, "group");
    }
}
