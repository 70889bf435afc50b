package io.ramjet.cli;

import io.ramjet.cli.Output.Column;
import io.ramjet.model.stats.BrokerFacts;
import io.ramjet.protocol.command.CommandCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ramjet-admin broker}: each broker's facts (version, uptime, disk, store sizes, transactions).
 * COMMITLOG is what the CommitLog retains, as the metric {@code ramjet_store_commitlog_bytes}
 * says; COMMITLOG_FILES the disk its segment files take, each created at its full size.
 */
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
                new Column<>("COMMITLOG", f -> size(f.commitLogRetainedBytes())),
                new Column<>("COMMITLOG_FILES", f -> size(f.commitLogBytes())),
                new Column<>("CONSUMEQUEUE_FILES", f -> size(f.consumeQueueBytes())),
                new Column<>("DESTINATIONS", BrokerFacts::destinations),
                new Column<>("OPEN_TX", BrokerFacts::openTransactions),
                new Column<>("PREPARED_XA", BrokerFacts::preparedXaBranches));
        return 0;
    }

    /** Bytes in the largest binary unit that keeps a whole number in front: 812 B, 4.2 KiB, 1024.0 MiB. */
    static String size(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int unit = 0;
        double value = bytes;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return unit == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }
}
