package io.ramjet.protocol.command;

import java.util.List;

/** Response header of {@link CommandCode#LIST_BROKERS}: every live broker instance. */
public record BrokerList(List<BrokerInfo> brokers) {

    public BrokerList {
        brokers = List.copyOf(brokers);
    }
}
