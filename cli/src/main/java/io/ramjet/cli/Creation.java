package io.ramjet.cli;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.SubscriptionType;
import io.ramjet.model.stats.SubscriptionStats;
import io.ramjet.protocol.command.AdminCount;
import io.ramjet.protocol.command.AdminCreateRequest;
import io.ramjet.protocol.command.AdminQuery;
import io.ramjet.protocol.command.AdminSubscriptionRequest;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.SubscriptionStatsList;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code queue create|extend} and {@code topic create|extend}: a destination made by the operator
 * (ADMIN_CREATE, the admin right) on every master broker the NameServers know, or on the broker
 * groups named, so that clients' routes find it on each. Extending places a destination that
 * exists on another group too: clients use the new group from their next route refresh, and a
 * topic's durable subscriptions are made on the new group with it (ADMIN_CREATE_SUBSCRIPTION).
 */
final class Creation {

    /**
     * What a creation printed: where the destination is new, where it already was, and the
     * durable subscriptions a topic extended onto new groups took there.
     */
    record Created(String name, DestinationKind kind, List<String> created, List<String> existing,
                   List<String> durableSubscriptions) {
    }

    @Parameters(paramLabel = "NAME", description = "the destination's name")
    String name;

    @Option(names = "--queues", defaultValue = "0",
            description = "message queues on each broker (default: the broker's queuesPerDestination)")
    int queues;

    @Option(names = {"--groups", "--broker"}, split = ",", paramLabel = "GROUP",
            description = "only on these broker groups (broker names, comma-separated)")
    List<String> groups;

    int create(Common common, DestinationKind kind) {
        return create(common, kind, false);
    }

    /** Places an existing destination on the groups named as well; refused when no broker holds it. */
    int extend(Common common, DestinationKind kind) {
        if (groups == null || groups.isEmpty()) {
            throw new AdminException("name the groups to extend " + name + " onto with --groups");
        }
        return create(common, kind, true);
    }

    private int create(Common common, DestinationKind kind, boolean existingOnly) {
        if (queues < 0) {
            throw new AdminException("--queues must not be negative: " + queues);
        }
        List<String> created = new ArrayList<>();
        List<String> existing = new ArrayList<>();
        List<SubscriptionStats> durables;
        try (AdminClient admin = common.admin()) {
            List<BrokerInfo> registered = admin.brokers().stream().filter(b -> b.brokerId() == 0).toList();
            List<BrokerInfo> masters = registered.stream()
                    .filter(b -> groups == null || groups.contains(b.brokerName())).toList();
            if (masters.isEmpty()) {
                throw new AdminException(groups == null ? "no master broker is registered"
                        : "no master broker named " + String.join(", ", groups) + " is registered");
            }
            if (groups != null && masters.size() < groups.size()) {
                List<String> missing = new ArrayList<>(groups);
                masters.forEach(m -> missing.remove(m.brokerName()));
                throw new AdminException("no master broker named " + String.join(", ", missing) + " is registered");
            }
            if (existingOnly && !held(admin)) {
                throw new AdminException("no broker group holds a destination named '" + name + "': create it");
            }
            durables = existingOnly && kind == DestinationKind.TOPIC
                    ? durableSubscriptions(admin, registered.stream().filter(b -> !masters.contains(b)).toList())
                    : List.of();
            for (BrokerInfo master : masters) {
                long made = admin.call(master.address(), CommandCode.ADMIN_CREATE,
                        new AdminCreateRequest(name, kind, queues), AdminCount.class).count();
                (made > 0 ? created : existing).add(master.brokerName());
                if (made > 0) {
                    for (SubscriptionStats durable : durables) {
                        SubscriptionRef ref = new SubscriptionRef(name, SubscriptionType.valueOf(durable.kind()),
                                durable.clientId(), durable.name());
                        admin.call(master.address(), CommandCode.ADMIN_CREATE_SUBSCRIPTION,
                                new AdminSubscriptionRequest(ref, durable.selector(), durable.noLocal()), AdminCount.class);
                    }
                }
            }
        }
        String what = kind.name().toLowerCase(Locale.ROOT) + " " + name;
        List<String> copied = created.isEmpty() ? List.of() : durables.stream().map(Creation::label).toList();
        common.output().value(new Created(name, kind, created, existing, copied),
                "created " + what + " on " + (created.isEmpty() ? "no broker" : String.join(", ", created))
                        + (existing.isEmpty() ? "" : "; it already existed on " + String.join(", ", existing))
                        + (copied.isEmpty() ? "" : "; with its durable subscriptions " + String.join(", ", copied)));
        return 0;
    }

    /**
     * The topic's durable and shared durable subscriptions on the groups that hold it: a group
     * the topic is extended onto takes them, from the first message the topic gets there, so that
     * a subscription receives what producers send there before its consumer attaches there.
     */
    private List<SubscriptionStats> durableSubscriptions(AdminClient admin, List<BrokerInfo> holders) {
        Map<String, SubscriptionStats> byName = new LinkedHashMap<>();
        for (BrokerInfo holder : holders) {
            for (SubscriptionStats s : admin.call(holder.address(), CommandCode.ADMIN_SUBSCRIPTIONS,
                    new AdminQuery(name), SubscriptionStatsList.class).subscriptions()) {
                boolean durable = "DURABLE".equals(s.kind()) || "SHARED_DURABLE".equals(s.kind());
                if (durable && s.destinationKind() == DestinationKind.TOPIC && name.equals(s.destination())) {
                    byName.putIfAbsent(label(s), s);
                }
            }
        }
        return List.copyOf(byName.values());
    }

    /** A durable subscription as the output names it: client id and name, or the name alone. */
    private static String label(SubscriptionStats s) {
        return s.clientId() == null ? s.name() : s.clientId() + "/" + s.name();
    }

    /** Whether a NameServer that answers names a group holding the destination, live or not. */
    private boolean held(AdminClient admin) {
        for (String nameServer : admin.nameServers()) {
            try {
                if (!admin.route(nameServer, name).homeGroups().isEmpty()) {
                    return true;
                }
            } catch (AdminException unreachable) {
                // another NameServer may know it
            }
        }
        return false;
    }
}
