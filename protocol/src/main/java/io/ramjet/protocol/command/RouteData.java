package io.ramjet.protocol.command;

import java.util.List;
import java.util.Objects;

/**
 * Response header of {@link CommandCode#QUERY_ROUTE}: every live broker instance holding the
 * destination, masters and slaves, ordered by broker name then broker id, and the destination's
 * home groups.
 *
 * @param brokers    live broker instances holding the destination; empty when none is live
 * @param homeGroups the broker groups (broker names) that announced the destination since the
 *                   NameServer started, live or not: a group that is down keeps its destinations,
 *                   so a client does not create the destination elsewhere while its home is down
 * @param settled    false while the NameServer is so recently started that a broker may not have
 *                   registered with it yet: an empty answer then means "not known yet", not
 *                   "nowhere", and a client asks the other NameServers or again later
 */
public record RouteData(String destination, List<BrokerRoute> brokers, List<String> homeGroups, boolean settled) {

    public RouteData {
        Objects.requireNonNull(destination, "destination");
        brokers = List.copyOf(brokers);
        homeGroups = List.copyOf(homeGroups);
    }

    /** A settled answer whose home groups are those of the live brokers listed. */
    public RouteData(String destination, List<BrokerRoute> brokers) {
        this(destination, brokers, brokers.stream().map(r -> r.broker().brokerName()).distinct().toList(), true);
    }

    public boolean isEmpty() {
        return brokers.isEmpty();
    }

    /** The routes a producer may send to: masters with write permission. */
    public List<BrokerRoute> writableMasters() {
        return brokers.stream()
                .filter(r -> r.broker().isMaster() && Permission.isWritable(r.permissions()))
                .toList();
    }
}
