package io.ramjet.protocol.command;

import java.util.List;

/** Response header of {@link CommandCode#ADMIN_PARKED}, oldest first. */
public record ParkedSendList(List<ParkedSendStats> parked) {

    public ParkedSendList {
        parked = List.copyOf(parked);
    }
}
