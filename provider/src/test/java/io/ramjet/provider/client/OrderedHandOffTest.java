package io.ramjet.provider.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class OrderedHandOffTest {

    private final OrderedHandOff handOff = new OrderedHandOff();
    private final List<Long> handed = new ArrayList<>();

    private CompletableFuture<Void> submit(CompletableFuture<String> routed) {
        return handOff.submit(routed, (group, sequence) -> {
            handed.add(sequence);
            return CompletableFuture.completedFuture(null);
        });
    }

    @Test
    void fiftyThousandSendsWaitingForOneRouteAreAllHandedInTheirOrderWhenItIsKnown() {
        CompletableFuture<String> connecting = new CompletableFuture<>();
        List<CompletableFuture<Void>> results = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            results.add(submit(connecting.thenApply(group -> group)));
        }
        assertTrue(handed.isEmpty(), "nothing goes before its route is known");

        connecting.complete("broker-a");

        assertEquals(50_000, handed.size(), "every send was handed on");
        for (int i = 0; i < handed.size(); i++) {
            assertEquals(i + 1, handed.get(i), "in submission order");
        }
        assertTrue(results.stream().allMatch(r -> r.isDone() && !r.isCompletedExceptionally()));
    }

    @Test
    void aSendWhoseRouteIsKnownWaitsForAnEarlierOneStillLookedUp() {
        CompletableFuture<String> slow = new CompletableFuture<>();
        submit(slow);
        CompletableFuture<Void> later = submit(CompletableFuture.completedFuture("broker-b"));
        assertTrue(handed.isEmpty() && !later.isDone(), "the later send waits for the earlier one");

        slow.complete("broker-a");

        assertEquals(List.of(1L, 2L), handed);
        assertTrue(later.isDone());
    }

    @Test
    void aFailedLookupFailsItsSendAloneAndTheNextGoesOn() {
        CompletableFuture<String> failing = new CompletableFuture<>();
        CompletableFuture<Void> first = submit(failing);
        CompletableFuture<Void> second = submit(CompletableFuture.completedFuture("broker-a"));

        failing.completeExceptionally(new IllegalStateException("no route"));

        assertTrue(first.isCompletedExceptionally());
        assertEquals(List.of(2L), handed);
        assertTrue(second.isDone() && !second.isCompletedExceptionally());
    }
}
