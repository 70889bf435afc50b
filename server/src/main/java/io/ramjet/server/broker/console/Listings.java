package io.ramjet.server.broker.console;

import io.ramjet.model.stats.BrokerFacts;
import io.ramjet.model.stats.ConsumerStats;
import io.ramjet.server.broker.admin.Statistics;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the console lists: {@code GET /api/destinations}, {@code /api/subscriptions} and
 * {@code /api/consumers} (each with an optional {@code destination} filter) and
 * {@code /api/broker}, the same listings as the operator's commands, sampled when asked.
 * Rates are the page's to compute, from the counters of two listings. Thread-safe.
 */
public final class Listings {

    private final Statistics statistics;
    private final Function<String, List<ConsumerStats>> consumers;
    private final Supplier<BrokerFacts> facts;

    /** @param consumers the attached consumers of a destination, or of all for null */
    public Listings(Statistics statistics, Function<String, List<ConsumerStats>> consumers,
                    Supplier<BrokerFacts> facts) {
        this.statistics = statistics;
        this.consumers = consumers;
        this.facts = facts;
    }

    Object destinations(ApiCall call) {
        return statistics.destinations(call.param("destination"));
    }

    Object subscriptions(ApiCall call) {
        return statistics.subscriptions(call.param("destination"));
    }

    Object consumers(ApiCall call) {
        return consumers.apply(call.param("destination"));
    }

    Object broker(ApiCall call) {
        return facts.get();
    }
}
