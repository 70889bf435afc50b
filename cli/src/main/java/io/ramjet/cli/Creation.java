package io.ramjet.cli;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.AdminCount;
import io.ramjet.protocol.command.AdminCreateRequest;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.CommandCode;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code queue create|extend} and {@code topic create|extend}: a destination made by the operator
 * (ADMIN_CREATE, the admin right) on every master broker the NameServers know, or on the broker
 * groups named, so that clients' routes find it on each. Extending places a destination that
 * exists on another group too: clients use the new group from their next route refresh.
 */
final class Creation {

    /** What a creation printed: where the destination is new, and where it already was. */
    record Created(String name, DestinationKind kind, List<String> created, List<String> existing) {
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
            for (BrokerInfo master : masters) {
                long made = admin.call(master.address(), CommandCode.ADMIN_CREATE,
                        new AdminCreateRequest(name, kind, queues), AdminCount.class).count();
                (made > 0 ? created : existing).add(master.brokerName());
            }
        }
        String what = kind.name().toLowerCase(Locale.ROOT) + " " + name;
        common.output().value(new Created(name, kind, created, existing),
                "created " + what + " on " + (created.isEmpty() ? "no broker" : String.join(", ", created))
                        + (existing.isEmpty() ? "" : "; it already existed on " + String.join(", ", existing)));
        return 0;
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
