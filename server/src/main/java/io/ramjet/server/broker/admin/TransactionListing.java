package io.ramjet.server.broker.admin;

import io.ramjet.model.stats.TransactionStats;
import io.ramjet.server.broker.transaction.AckGroup;
import io.ramjet.server.broker.transaction.Transaction;
import io.ramjet.server.broker.transaction.TransactionTable;

import java.util.Comparator;
import java.util.List;

/** The transactions a broker holds, oldest first, for an operator (and the XA branches to decide). Thread-safe. */
public final class TransactionListing {

    private final TransactionTable transactions;

    public TransactionListing(TransactionTable transactions) {
        this.transactions = transactions;
    }

    public List<TransactionStats> list() {
        return transactions.all().stream()
                .sorted(Comparator.comparingLong(Transaction::since))
                .map(TransactionListing::stats)
                .toList();
    }

    private static TransactionStats stats(Transaction t) {
        return new TransactionStats(t.id(), t.xid(), t.status().name(),
                t.owner() == null ? null : t.owner().toString(), t.coordinator(), t.halves().size(),
                t.preparedAcks().stream().map(AckGroup::positions).mapToInt(List::size).sum(), t.since());
    }
}
