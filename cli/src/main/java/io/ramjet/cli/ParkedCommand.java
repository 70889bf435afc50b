package io.ramjet.cli;

import io.ramjet.cli.Output.Column;
import io.ramjet.protocol.command.AdminCount;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ParkedResolveRequest;
import io.ramjet.protocol.command.ParkedSendList;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ramjet-admin parked list|resolve}: the sends a group keeps for another whose master was
 * lost before it answered (parked sends), and the operator's decision for those of an origin group
 * gone for good. Every master any NameServer lists is asked (a slave's copy is its master's); one
 * that does not answer is marked {@value ParkedRow#UNREACHABLE}. Only a user with the {@code admin}
 * right may ask.
 */
@Command(name = "parked", description = "parked sends: list them per origin group, decide those of a group gone for good",
        mixinStandardHelpOptions = true)
final class ParkedCommand {

    /** How an operator decides: exactly one of the two. */
    static final class Decision {
        @Option(names = "--commit", required = true,
                description = "deliver each, as the origin group's answer 'not held' would")
        boolean commit;

        @Option(names = "--discard", required = true,
                description = "drop each, as the origin group's answer 'held' would")
        boolean discard;
    }

    @Command(name = "list", description = {"the parked sends on each broker, by origin group, oldest first;",
            "a broker that does not answer is marked UNREACHABLE"})
    int list(@Mixin Common common) {
        List<ParkedRow> rows = new ArrayList<>();
        try (AdminClient admin = common.admin()) {
            for (BrokerInfo broker : masters(admin)) {
                try {
                    admin.call(broker.address(), CommandCode.ADMIN_PARKED, null, ParkedSendList.class).parked()
                            .forEach(p -> rows.add(ParkedRow.held(broker.brokerName(), p)));
                } catch (AdminException e) {
                    if (!e.unreachable()) {
                        throw e;
                    }
                    rows.add(ParkedRow.unreachable(broker.brokerName(), e.getMessage()));
                }
            }
        }
        rows.sort(Comparator.comparing((ParkedRow r) -> r.group() == null ? "" : r.group())
                .thenComparing(ParkedRow::broker).thenComparingLong(r -> r.since() == null ? 0 : r.since()));
        common.output().table(rows,
                new Column<>("GROUP", ParkedRow::group),
                new Column<>("BROKER", ParkedRow::broker),
                new Column<>("STATE", ParkedRow::state),
                new Column<>("PRODUCER", ParkedRow::producer),
                new Column<>("SEQUENCE", ParkedRow::sequence),
                new Column<>("KIND", ParkedRow::kind),
                new Column<>("DESTINATION", ParkedRow::destination),
                new Column<>("SINCE", r -> r.since() == null ? null : Instant.ofEpochMilli(r.since())));
        return 0;
    }

    @Command(name = "resolve", description = {"decide every parked send of an origin group gone for good, on every",
            "broker that holds one; refused while a broker of the group is registered (it answers for them)",
            "exit 1 when a broker did not answer: run it again once it does"})
    int resolve(@Mixin Common common,
                @Option(names = "--group", required = true, description = "the origin group, as parked list shows it")
                String group,
                @ArgGroup(exclusive = true, multiplicity = "1") Decision decision) {
        boolean commit = decision.commit;
        long decided = 0;
        List<String> holders = new ArrayList<>();
        List<String> unreachable = new ArrayList<>();
        try (AdminClient admin = common.admin()) {
            List<BrokerInfo> brokers = admin.brokersOfEvery();
            brokers.stream().filter(b -> b.brokerName().equals(group)).findFirst().ifPresent(live -> {
                throw new AdminException("group " + group + " has a broker registered (" + live.address()
                        + "): its parked sends are decided by asking it, not by an operator");
            });
            for (BrokerInfo broker : masters(brokers)) {
                try {
                    long count = admin.call(broker.address(), CommandCode.ADMIN_PARKED_RESOLVE,
                            new ParkedResolveRequest(group, commit), AdminCount.class).count();
                    if (count > 0) {
                        decided += count;
                        holders.add(broker.brokerName());
                    }
                } catch (AdminException e) {
                    if (!e.unreachable()) {
                        throw e;
                    }
                    unreachable.add(broker.brokerName());
                }
            }
        }
        if (decided == 0 && unreachable.isEmpty()) {
            throw new AdminException("no broker holds a parked send of group " + group);
        }
        String outcome = commit ? "committed" : "discarded";
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("group", group);
        result.put("decision", outcome);
        result.put("parked", decided);
        result.put("brokers", holders);
        result.put("unreachable", unreachable);
        common.output().value(result, outcome + " " + decided + " parked send(s) of group " + group + " on "
                + holders.size() + " broker(s)" + (unreachable.isEmpty() ? ""
                : "; " + ParkedRow.UNREACHABLE + ", not decided there: " + String.join(", ", unreachable)));
        return unreachable.isEmpty() ? 0 : 1;
    }

    private static List<BrokerInfo> masters(AdminClient admin) {
        return masters(admin.brokersOfEvery());
    }

    private static List<BrokerInfo> masters(List<BrokerInfo> brokers) {
        return brokers.stream().filter(BrokerInfo::isMaster).toList();
    }
}
