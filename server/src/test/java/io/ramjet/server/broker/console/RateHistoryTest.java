package io.ramjet.server.broker.console;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.stats.DestinationStats;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The console's rate history: rates per destination and in total from the counts of two samples,
 * a destination new since the previous sample counted from 0, no rate at the very first sample,
 * only the last points kept, and a deleted destination's history dropped.
 */
class RateHistoryTest {

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final List<DestinationStats> destinations = new ArrayList<>();
    private final RateHistory history = new RateHistory(() -> List.copyOf(destinations), now::get, 2_000, 3);

    private static DestinationStats queue(String name, long enqueued, long acknowledged) {
        return new DestinationStats(name, DestinationKind.QUEUE, false, 4, enqueued, enqueued - acknowledged, 0, 0, 0,
                acknowledged, 0, 1);
    }

    private void sampleAfter(long millis, DestinationStats... now) {
        this.now.addAndGet(millis);
        destinations.clear();
        destinations.addAll(List.of(now));
        history.sample();
    }

    @Test
    void ratesAreTheCountsDeltasPerSecondPerDestinationAndInTotal() {
        sampleAfter(0, queue("a", 0, 0), queue("b", 10, 0));
        sampleAfter(2_000, queue("a", 20, 10), queue("b", 14, 2));
        RateHistory.Series a = history.series("QUEUE:a");
        assertEquals(List.of(1_002_000L), a.t());
        assertEquals(List.of(10.0), a.enqueue());
        assertEquals(List.of(5.0), a.dequeue());
        RateHistory.Series all = history.series(RateHistory.ALL);
        assertEquals(List.of(0.0, 12.0), all.enqueue(), "the first sample has nothing to compare with");
        sampleAfter(1_000, queue("a", 20, 10), queue("b", 14, 2), queue("c", 7, 3));
        assertEquals(List.of(7.0), history.series("QUEUE:c").enqueue(), "new since the previous sample: from 0");
        assertEquals(List.of(0.0, 6.0), all.dequeue());
        assertEquals(2_000, all.periodMillis());
    }

    @Test
    void onlyTheLastPointsAreKeptAndADeletedDestinationsHistoryGoes() {
        for (int i = 0; i <= 5; i++) {
            sampleAfter(2_000, queue("a", 2L * i, 0));
        }
        assertEquals(3, history.series("QUEUE:a").t().size());
        assertEquals(3, history.series(RateHistory.ALL).t().size());
        sampleAfter(2_000);
        assertEquals(List.of(), history.series("QUEUE:a").t());
        sampleAfter(2_000, queue("a", 100, 0));
        assertEquals(List.of(50.0), history.series("QUEUE:a").enqueue(), "created again, it starts from 0");
    }
}
