package io.ramjet.cli;

import io.ramjet.cli.Output.Column;
import io.ramjet.protocol.command.BrokerFacts;
import io.ramjet.protocol.command.CommandCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code ramjet-admin broker}: each broker's facts (version, uptime, disk, store sizes, transactions). */
@Command(name = "broker", description = "each broker's version, uptime, disk use, store sizes and transactions",
        mixinStandardHelpOptions = true)
final class BrokerCommand implements Callable<Integer> {

    @Mixin
    Common common;

    @Override
    public Integer call() {
        List<BrokerFacts> facts;
        try (AdminClient admin = common.admin()) {
            facts = admin.brokers().stream()
                    .map(b -> admin.call(b.address(), CommandCode.ADMIN_BROKER, null, BrokerFacts.class)).toList();
        }
        common.output().table(facts,
                new Column<>("BROKER", BrokerFacts::brokerName),
                new Column<>("ADDRESS", BrokerFacts::address),
                new Column<>("VERSION", BrokerFacts::version),
                new Column<>("UPTIME", f -> Duration.ofMillis(f.uptimeMillis()).withNanos(0)),
                new Column<>("DISK_USE", f -> String.format("%.1f%%", f.diskUse() * 100)),
                new Column<>("DISK_LIMIT", f -> String.format("%.1f%%", f.diskUseLimit() * 100)),
                new Column<>("COMMITLOG", f -> mebibytes(f.commitLogBytes())),
                new Column<>("CONSUMEQUEUE", f -> mebibytes(f.consumeQueueBytes())),
                new Column<>("DESTINATIONS", BrokerFacts::destinations),
                new Column<>("OPEN_TX", BrokerFacts::openTransactions),
                new Column<>("PREPARED_XA", BrokerFacts::preparedXaBranches));
        return 0;
    }

    private static String mebibytes(long bytes) {
        return String.format("%.1f MiB", bytes / 1048576.0);
    }
}
