package io.ramjet.cli;

import io.ramjet.cli.Output.Column;
import io.ramjet.model.stats.SubscriptionStats;
import io.ramjet.protocol.command.AdminCount;
import io.ramjet.protocol.command.AdminQuery;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.ClaimClientIdRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.DeleteSubscriptionRequest;
import io.ramjet.protocol.command.PurgeRequest;
import io.ramjet.protocol.command.SubscriptionStatsList;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;

/** {@code ramjet-admin subscription list|delete|purge}. */
@Command(name = "subscription", description = "subscriptions: backlogs, delete or purge a durable one",
        mixinStandardHelpOptions = true)
final class SubscriptionCommand {

    @Command(name = "list", description = "every subscription with its backlog on each broker")
    int list(@Mixin Common common, @Option(names = "--destination", description = "only this destination's")
             String destination) {
        List<OnBroker<SubscriptionStats>> rows;
        try (AdminClient admin = common.admin()) {
            rows = OnBroker.gather(admin, broker -> admin.call(broker.address(), CommandCode.ADMIN_SUBSCRIPTIONS,
                    new AdminQuery(destination), SubscriptionStatsList.class).subscriptions());
        }
        common.output().table(rows,
                new Column<>("BROKER", OnBroker::broker),
                new Column<>("DESTINATION", r -> r.row().destination()),
                new Column<>("KIND", r -> r.row().kind()),
                new Column<>("CLIENT_ID", r -> r.row().clientId()),
                new Column<>("NAME", r -> r.row().name()),
                new Column<>("SELECTOR", r -> r.row().selector()),
                new Column<>("CONSUMERS", r -> r.row().consumers()),
                new Column<>("BACKLOG", r -> r.row().backlog()),
                new Column<>("IN_FLIGHT", r -> r.row().inFlight()));
        return 0;
    }

    @Command(name = "delete", description = "delete a durable subscription that has no consumer")
    int delete(@Mixin Common common, @Parameters(paramLabel = "NAME") String name,
               @Option(names = "--client-id", description = "its owner's client id") String clientId) {
        long deleted = onHolders(common, clientId, name, (admin, broker) -> {
            // as a JMS client's unsubscribe: only the holder of the client id may delete its subscriptions,
            // so the command holds it for the deletion (refused while the application is connected)
            admin.call(broker.address(), CommandCode.CLAIM_CLIENT_ID, new ClaimClientIdRequest(clientId, false),
                    Void.class);
            try {
                admin.call(broker.address(), CommandCode.DELETE_SUBSCRIPTION,
                        new DeleteSubscriptionRequest(clientId, name), Void.class);
            } finally {
                admin.call(broker.address(), CommandCode.CLAIM_CLIENT_ID, new ClaimClientIdRequest(clientId, true),
                        Void.class);
            }
            return 1L;
        });
        common.output().value(Map.of("name", name, "brokers", deleted),
                "deleted subscription " + name + " on " + deleted + " broker(s)");
        return 0;
    }

    @Command(name = "purge", description = "acknowledge every message of a durable subscription that no consumer holds")
    int purge(@Mixin Common common, @Parameters(paramLabel = "NAME") String name,
              @Option(names = "--client-id", description = "its owner's client id") String clientId) {
        long total = onHolders(common, clientId, name, (admin, broker) -> admin.call(broker.address(),
                CommandCode.ADMIN_PURGE, new PurgeRequest(null, clientId, name), AdminCount.class).count());
        common.output().value(Map.of("name", name, "purged", total),
                "purged " + total + " messages from subscription " + name);
        return 0;
    }

    /** What {@code action} answers on each broker holding the durable subscription, summed; refused when none does. */
    private static long onHolders(Common common, String clientId, String name,
                                  BiFunction<AdminClient, BrokerInfo, Long> action) {
        long total = 0;
        int holders = 0;
        try (AdminClient admin = common.admin()) {
            for (BrokerInfo broker : admin.brokers()) {
                if (holds(admin, broker, clientId, name)) {
                    holders++;
                    total += action.apply(admin, broker);
                }
            }
        }
        if (holders == 0) {
            throw new AdminException("no durable subscription '" + name + "' of client '" + clientId + "'");
        }
        return total;
    }

    private static boolean holds(AdminClient admin, BrokerInfo broker, String clientId, String name) {
        return admin.call(broker.address(), CommandCode.ADMIN_SUBSCRIPTIONS, new AdminQuery(null),
                SubscriptionStatsList.class).subscriptions().stream()
                .anyMatch(s -> s.kind().contains("DURABLE") && name.equals(s.name())
                        && Objects.equals(clientId, s.clientId()));
    }
}
