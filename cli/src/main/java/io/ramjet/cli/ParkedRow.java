package io.ramjet.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.ParkedSendStats;

/**
 * A row of {@code parked list}: a parked send held by a broker ({@value #HELD}), or a broker a
 * NameServer lists that did not answer ({@value #UNREACHABLE}: what it holds is unknown). The
 * producer is in hexadecimal, as the transaction's coordinator {@code parked:<producer>:<sequence>:<group>}
 * names it; kind and destination are absent while only the send's vote has arrived.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record ParkedRow(String group, String broker, String state, String producer, Long sequence, Long transactionId,
                 DestinationKind kind, String destination, Long since, String error) {

    static final String HELD = "held";
    static final String UNREACHABLE = "UNREACHABLE";

    static ParkedRow held(String broker, ParkedSendStats p) {
        return new ParkedRow(p.group(), broker, HELD, Long.toHexString(p.producerId()), p.sequence(),
                p.transactionId(), p.kind(), p.destination(), p.since(), null);
    }

    static ParkedRow unreachable(String broker, String error) {
        return new ParkedRow(null, broker, UNREACHABLE, null, null, null, null, null, null, error);
    }
}
