package io.ramjet.cli;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.ramjet.protocol.command.AdminQuery;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.model.DestinationKind;
import io.ramjet.model.stats.DestinationStats;
import io.ramjet.protocol.command.DestinationStatsList;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A row of {@code queue stat}: a destination's part on one broker with its counts, or a broker
 * that could not tell (a broker that refuses fails the command). {@code state} says which: {@value #UP}; {@value #UNREACHABLE}, a broker a
 * NameServer lists that did not answer (name and counts unknown); {@value #DOWN}, a home group of
 * the destination that no NameServer lists a live broker of (its messages wait there, uncounted).
 * In JSON the counts are the row's fields, absent for the last two.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record DestinationStat(String broker, String state, String name, DestinationKind kind,
                       @JsonUnwrapped @JsonIgnoreProperties({"name", "kind"}) DestinationStats counts,
                       String error) {

    static final String UP = "up";
    static final String UNREACHABLE = "UNREACHABLE";
    static final String DOWN = "DOWN";

    /**
     * Every destination (or the one named) on every broker any NameServer lists, then a
     * {@value #DOWN} row for each home group of a destination seen (or named) that none lists.
     */
    static List<DestinationStat> gather(AdminClient admin, String name) {
        List<DestinationStat> rows = new ArrayList<>();
        Set<String> listedGroups = new TreeSet<>();
        TreeMap<String, DestinationKind> seen = new TreeMap<>();
        for (BrokerInfo broker : admin.brokersOfEvery()) {
            listedGroups.add(broker.brokerName());
            try {
                for (DestinationStats d : admin.call(broker.address(), CommandCode.ADMIN_DESTINATIONS,
                        new AdminQuery(name), DestinationStatsList.class).destinations()) {
                    rows.add(new DestinationStat(broker.brokerName(), UP, d.name(), d.kind(), d, null));
                    seen.putIfAbsent(d.name(), d.kind());
                }
            } catch (AdminException e) {
                if (!e.unreachable()) {
                    throw e;
                }
                rows.add(new DestinationStat(broker.brokerName(), UNREACHABLE, null, null, null, e.getMessage()));
            }
        }
        if (name != null) {
            seen.putIfAbsent(name, null);
        }
        seen.forEach((destination, kind) -> {
            for (String group : admin.homeGroups(destination)) {
                if (!listedGroups.contains(group)) {
                    rows.add(new DestinationStat(group, DOWN, destination, kind, null,
                            "no live broker of the group is registered"));
                }
            }
        });
        return rows;
    }
}
