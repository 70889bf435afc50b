package io.ramjet.cli;

import io.ramjet.cli.Output.Column;
import io.ramjet.model.DestinationKind;
import io.ramjet.model.stats.DestinationStats;
import io.ramjet.protocol.command.AdminQuery;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.BrokerRoute;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.DestinationStatsList;
import io.ramjet.protocol.command.Permission;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * {@code ramjet-admin nameserver brokers|routes}: what each NameServer tells clients, asked of
 * every NameServer of the URL, so one that lost a broker shows beside one that did not. A
 * NameServer (or, listing destinations, a broker) that does not answer is shown as a row marked
 * {@value #UNREACHABLE} beside what the others answered; the exit status is 1 only when no
 * NameServer answered.
 */
@Command(name = "nameserver", description = "what the NameServers know: registered brokers, destinations' routes",
        mixinStandardHelpOptions = true)
final class NameServerCommand {

    static final String UNREACHABLE = "UNREACHABLE";

    /** A broker as one NameServer has it registered. */
    record Registered(String nameServer, String cluster, String broker, long brokerId, String address) {
    }

    /** One broker's part of a destination's route, as one NameServer answers it. */
    record Route(String nameServer, String destination, DestinationKind kind, String broker, long brokerId,
                 String address, int queues, String permissions) {
    }

    @Command(name = "brokers", description = "the brokers registered with each NameServer")
    int brokers(@Mixin Common common) {
        List<Registered> rows = new ArrayList<>();
        int answered = 0;
        try (AdminClient admin = common.admin()) {
            for (String nameServer : admin.nameServers()) {
                try {
                    for (BrokerInfo b : admin.brokersOf(nameServer)) {
                        rows.add(new Registered(nameServer, b.clusterName(), b.brokerName(), b.brokerId(), b.address()));
                    }
                    answered++;
                } catch (AdminException e) {
                    rows.add(new Registered(nameServer, "-", UNREACHABLE, -1, e.getMessage()));
                }
            }
        }
        common.output().table(rows,
                new Column<>("NAMESERVER", Registered::nameServer),
                new Column<>("CLUSTER", Registered::cluster),
                new Column<>("BROKER", Registered::broker),
                new Column<>("ID", Registered::brokerId),
                new Column<>("ADDRESS", Registered::address));
        return answered > 0 ? 0 : 1;
    }

    @Command(name = "routes", description = {"each destination's route: the brokers holding it and their message"
            + " queues;", "without NAME, every destination the registered brokers hold"})
    int routes(@Mixin Common common, @Parameters(paramLabel = "NAME", arity = "0..*",
            description = "destinations to show") List<String> names) {
        List<Route> rows = new ArrayList<>();
        TreeSet<String> answered = new TreeSet<>();
        try (AdminClient admin = common.admin()) {
            for (String destination : names == null || names.isEmpty() ? destinationNames(admin, rows) : names) {
                for (String nameServer : admin.nameServers()) {
                    try {
                        for (BrokerRoute r : admin.route(nameServer, destination).brokers()) {
                            rows.add(new Route(nameServer, destination, r.kind(), r.broker().brokerName(),
                                    r.broker().brokerId(), r.broker().address(), r.queueCount(),
                                    permissions(r.permissions())));
                        }
                        answered.add(nameServer);
                    } catch (AdminException e) {
                        rows.add(new Route(nameServer, destination, null, UNREACHABLE, -1, e.getMessage(), 0, "-"));
                    }
                }
            }
        }
        common.output().table(rows,
                new Column<>("NAMESERVER", Route::nameServer),
                new Column<>("DESTINATION", Route::destination),
                new Column<>("KIND", Route::kind),
                new Column<>("BROKER", Route::broker),
                new Column<>("ID", Route::brokerId),
                new Column<>("ADDRESS", Route::address),
                new Column<>("QUEUES", Route::queues),
                new Column<>("PERM", Route::permissions));
        return answered.isEmpty() && rows.stream().anyMatch(r -> UNREACHABLE.equals(r.broker())) ? 1 : 0;
    }

    /**
     * The names of the destinations every registered broker holds, sorted, each once; a broker
     * that does not answer adds an {@value #UNREACHABLE} row to {@code rows}.
     */
    private static TreeSet<String> destinationNames(AdminClient admin, List<Route> rows) {
        TreeSet<String> names = new TreeSet<>();
        for (BrokerInfo broker : admin.brokers()) {
            try {
                admin.call(broker.address(), CommandCode.ADMIN_DESTINATIONS, new AdminQuery(null),
                        DestinationStatsList.class).destinations().stream().map(DestinationStats::name)
                        .forEach(names::add);
            } catch (AdminException e) {
                rows.add(new Route("-", "-", null, UNREACHABLE, broker.brokerId(), broker.address(), 0,
                        e.getMessage()));
            }
        }
        return names;
    }

    private static String permissions(int bits) {
        return (Permission.isReadable(bits) ? "r" : "-") + (Permission.isWritable(bits) ? "w" : "-");
    }
}
