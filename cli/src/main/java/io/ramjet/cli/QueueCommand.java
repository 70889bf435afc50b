package io.ramjet.cli;

import io.ramjet.cli.Output.Column;
import io.ramjet.model.DestinationKind;
import io.ramjet.model.stats.DestinationStats;
import io.ramjet.protocol.command.AdminCount;
import io.ramjet.protocol.command.AdminQuery;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.DeleteDestinationRequest;
import io.ramjet.protocol.command.DestinationStatsList;
import io.ramjet.protocol.command.MoveRequest;
import io.ramjet.protocol.command.PurgeRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/** {@code ramjet-admin queue create|extend|stat|list|purge|delete|move}: destinations and their messages. */
@Command(name = "queue", description = "destinations: create, depths, purge, delete, move messages",
        mixinStandardHelpOptions = true)
final class QueueCommand extends PlacementCommands {

    @Override
    DestinationKind kind() {
        return DestinationKind.QUEUE;
    }

    @Command(name = "stat", description = {"every destination (or one) with its depth on each broker;",
            "a broker that does not answer is marked UNREACHABLE, a home group with no live broker DOWN"})
    int stat(@Mixin Common common, @Option(names = "--name", description = "only this destination") String name) {
        List<DestinationStat> rows;
        try (AdminClient admin = common.admin()) {
            rows = DestinationStat.gather(admin, name);
        }
        if (name != null && rows.stream().noneMatch(r -> name.equals(r.name()))
                && rows.stream().noneMatch(r -> DestinationStat.UNREACHABLE.equals(r.state()))) {
            throw new AdminException("no broker has a destination named '" + name + "'");
        }
        common.output().table(rows,
                new Column<>("BROKER", DestinationStat::broker),
                new Column<>("STATE", DestinationStat::state),
                new Column<>("KIND", DestinationStat::kind),
                new Column<>("NAME", DestinationStat::name),
                new Column<>("READY", r -> count(r, DestinationStats::ready)),
                new Column<>("IN_FLIGHT", r -> count(r, DestinationStats::inFlight)),
                new Column<>("REDELIVERING", r -> count(r, DestinationStats::redelivering)),
                new Column<>("DELAYED", r -> count(r, DestinationStats::delayed)),
                new Column<>("ENQUEUED", r -> count(r, DestinationStats::enqueued)),
                new Column<>("ACKED", r -> count(r, DestinationStats::acknowledged)),
                new Column<>("CONSUMERS", r -> count(r, DestinationStats::consumers)),
                new Column<>("SUBSCRIPTIONS", r -> count(r, DestinationStats::subscriptions)));
        return 0;
    }

    /** A count of the row, null (shown "-") where the broker could not tell. */
    private static Object count(DestinationStat row, Function<DestinationStats, Object> count) {
        return row.counts() == null ? null : count.apply(row.counts());
    }

    @Command(name = "list", description = "the names of the destinations on each broker")
    int list(@Mixin Common common) {
        List<OnBroker<DestinationStats>> rows = destinations(common, null);
        common.output().table(rows,
                new Column<>("BROKER", OnBroker::broker),
                new Column<>("KIND", r -> r.row().kind()),
                new Column<>("NAME", r -> r.row().name()),
                new Column<>("QUEUES", r -> r.row().queueCount()),
                new Column<>("TEMPORARY", r -> r.row().temporary()));
        return 0;
    }

    @Command(name = "purge", description = "acknowledge every message of a queue that no consumer holds")
    int purge(@Mixin Common common, @Parameters(paramLabel = "QUEUE") String queue) {
        long total = perBroker(common, queue, (admin, broker) -> admin.call(broker.address(),
                CommandCode.ADMIN_PURGE, PurgeRequest.queue(queue), AdminCount.class).count());
        common.output().value(Map.of("queue", queue, "purged", total), "purged " + total + " messages from " + queue);
        return 0;
    }

    @Command(name = "delete", description = "delete a destination, its subscriptions and its messages")
    int delete(@Mixin Common common, @Parameters(paramLabel = "NAME") String name,
               @Option(names = "--topic", description = "a topic, not a queue") boolean topic) {
        DestinationKind kind = topic ? DestinationKind.TOPIC : DestinationKind.QUEUE;
        long deleted = perBroker(common, name, (admin, broker) -> {
            admin.call(broker.address(), CommandCode.DELETE_DESTINATION, new DeleteDestinationRequest(name, kind),
                    Void.class);
            return 1L;
        });
        common.output().value(Map.of("name", name, "kind", kind, "brokers", deleted),
                "deleted " + kind.name().toLowerCase(Locale.ROOT) + " " + name + " on " + deleted
                        + " broker(s)");
        return 0;
    }

    @Command(name = "move", description = {"move (or copy) a queue's messages to another destination,",
            "e.g. dead letters back: queue move --from DLQ.orders (to each message's original destination)"})
    int move(@Mixin Common common,
             @Option(names = "--from", required = true, description = "the source queue") String from,
             @Option(names = "--to", description = "the target; default: each message's JMS_RamjetOriginalDestination")
             String to,
             @Option(names = "--selector", description = "only the messages it selects") String selector,
             @Option(names = "--copy", description = "leave the originals") boolean copy,
             @Option(names = "--max", defaultValue = "2147483647", description = "at most this many") int max) {
        MoveRequest request = new MoveRequest(from, to, selector, copy, max);
        long total = perBroker(common, from, (admin, broker) -> admin.call(broker.address(), CommandCode.ADMIN_MOVE,
                request, AdminCount.class).count());
        common.output().value(Map.of("from", from, "moved", total), (copy ? "copied " : "moved ") + total
                + " messages from " + from + " to " + (to == null ? "their original destinations" : to));
        return 0;
    }

    private static List<OnBroker<DestinationStats>> destinations(Common common, String name) {
        try (AdminClient admin = common.admin()) {
            return OnBroker.gather(admin, broker -> admin.call(broker.address(), CommandCode.ADMIN_DESTINATIONS,
                    new AdminQuery(name), DestinationStatsList.class).destinations());
        }
    }

    /** What {@code action} answers on each broker holding a destination of that name, summed; refused when none does. */
    private static long perBroker(Common common, String name, BiFunction<AdminClient, BrokerInfo, Long> action) {
        try (AdminClient admin = common.admin()) {
            long total = 0;
            int holding = 0;
            for (BrokerInfo broker : admin.brokers()) {
                List<DestinationStats> held = admin.call(broker.address(), CommandCode.ADMIN_DESTINATIONS,
                        new AdminQuery(name), DestinationStatsList.class).destinations();
                if (!held.isEmpty()) {
                    holding++;
                    total += action.apply(admin, broker);
                }
            }
            if (holding == 0) {
                throw new AdminException("no broker has a destination named '" + name + "'");
            }
            return total;
        }
    }
}
