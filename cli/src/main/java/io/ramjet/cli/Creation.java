package io.ramjet.cli;

import io.ramjet.protocol.command.AdminCount;
import io.ramjet.protocol.command.AdminCreateRequest;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.DestinationKind;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code queue create} and {@code topic create}: a destination made by the operator (ADMIN_CREATE,
 * the admin right) on every master broker the NameServers know, or on the one named, so that
 * clients' routes find it on each.
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

    @Option(names = "--broker", description = "only on this broker (by name)")
    String broker;

    int create(Common common, DestinationKind kind) {
        if (queues < 0) {
            throw new AdminException("--queues must not be negative: " + queues);
        }
        List<String> created = new ArrayList<>();
        List<String> existing = new ArrayList<>();
        try (AdminClient admin = common.admin()) {
            List<BrokerInfo> masters = admin.brokers().stream().filter(b -> b.brokerId() == 0)
                    .filter(b -> broker == null || broker.equals(b.brokerName())).toList();
            if (masters.isEmpty()) {
                throw new AdminException(broker == null ? "no master broker is registered"
                        : "no master broker named '" + broker + "' is registered");
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
}
