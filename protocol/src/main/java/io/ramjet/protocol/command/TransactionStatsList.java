package io.ramjet.protocol.command;

import io.ramjet.model.stats.TransactionStats;

import java.util.List;

/** Response header of {@link CommandCode#ADMIN_TRANSACTIONS}, oldest first. */
public record TransactionStatsList(List<TransactionStats> transactions) {

    public TransactionStatsList {
        transactions = List.copyOf(transactions);
    }
}
