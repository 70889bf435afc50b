package io.ramjet.server.broker.transaction;

import io.ramjet.server.broker.session.ClientSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Rolls back, at once, the unprepared transactions of a client session that closes: an unfinished
 * JMS transaction of a client that is gone rolls back. Prepared ones stay for their check-back
 * (a local one asks its coordinator) or their transaction manager (an XA branch).
 */
final class LostOwners {

    private static final Logger LOG = LoggerFactory.getLogger(LostOwners.class);

    private final TransactionTable table;
    private final TransactionResolver resolver;
    private final BooleanSupplier serving;

    /** @param serving false once the broker stops: its own stop closes every connection */
    LostOwners(TransactionTable table, TransactionResolver resolver, BooleanSupplier serving) {
        this.table = table;
        this.resolver = resolver;
        this.serving = serving;
    }

    void closed(ClientSession session) {
        if (!serving.getAsBoolean()) {
            return;
        }
        for (Transaction t : table.all()) {
            if (session.equals(t.owner()) && t.status() == TransactionStatus.OPEN && !t.prepared()) {
                LOG.info("{}: its connection {} closed, rolling it back", t, session);
                try {
                    resolver.end(t.id(), "", false, List.of()).whenComplete((done, failure) -> {
                        if (failure != null) {
                            LOG.warn("{}: rollback after its connection closed failed; check-back will retry", t,
                                    failure);
                        }
                    });
                } catch (RuntimeException e) {
                    LOG.warn("{}: rollback after its connection closed failed; check-back will retry", t, e);
                }
            }
        }
    }
}
