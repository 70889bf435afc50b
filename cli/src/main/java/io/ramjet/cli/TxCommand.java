package io.ramjet.cli;

import io.ramjet.cli.Output.Column;
import io.ramjet.model.stats.TransactionStats;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.TransactionStatsList;
import io.ramjet.protocol.command.TxEndRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code ramjet-admin tx list|commit|rollback}: the transactions the brokers hold, and the
 * decision for a prepared XA branch whose transaction manager is gone for good (a heuristic
 * decision: the operator answers for it).
 */
@Command(name = "tx", description = "transactions: list them, commit or roll back a prepared XA branch",
        mixinStandardHelpOptions = true)
final class TxCommand {

    @Command(name = "list", description = "open and prepared transactions on each broker, oldest first")
    int list(@Mixin Common common) {
        List<OnBroker<TransactionStats>> rows;
        try (AdminClient admin = common.admin()) {
            rows = OnBroker.gather(admin, broker -> transactions(admin, broker));
        }
        common.output().table(rows,
                new Column<>("BROKER", OnBroker::broker),
                new Column<>("ID", r -> r.row().id()),
                new Column<>("XID", r -> r.row().xid().isEmpty() ? null : r.row().xid()),
                new Column<>("STATUS", r -> r.row().status()),
                new Column<>("OWNER", r -> r.row().owner()),
                new Column<>("MESSAGES", r -> r.row().messages()),
                new Column<>("ACKS", r -> r.row().acks()),
                new Column<>("SINCE", r -> Instant.ofEpochMilli(r.row().since())));
        return 0;
    }

    @Command(name = "commit", description = "commit a prepared XA branch on every broker that holds it")
    int commit(@Mixin Common common, @Parameters(paramLabel = "XID", description = "as tx list shows it") String xid) {
        return decide(common, xid, true);
    }

    @Command(name = "rollback", description = "roll back a prepared XA branch on every broker that holds it")
    int rollback(@Mixin Common common, @Parameters(paramLabel = "XID", description = "as tx list shows it") String xid) {
        return decide(common, xid, false);
    }

    private static int decide(Common common, String xid, boolean commit) {
        int decided = 0;
        try (AdminClient admin = common.admin()) {
            for (BrokerInfo broker : admin.brokers()) {
                if (transactions(admin, broker).stream().anyMatch(t -> t.xid().equals(xid))) {
                    admin.call(broker.address(), CommandCode.TX_END, new TxEndRequest(0, xid, commit, List.of()),
                            Void.class);
                    decided++;
                }
            }
        }
        if (decided == 0) {
            throw new AdminException("no broker holds a transaction with xid " + xid);
        }
        String decision = commit ? "committed" : "rolled back";
        common.output().value(Map.of("xid", xid, "decision", decision, "brokers", decided),
                decision + " " + xid + " on " + decided + " broker(s)");
        return 0;
    }

    private static List<TransactionStats> transactions(AdminClient admin, BrokerInfo broker) {
        return admin.call(broker.address(), CommandCode.ADMIN_TRANSACTIONS, null, TransactionStatsList.class)
                .transactions();
    }
}
