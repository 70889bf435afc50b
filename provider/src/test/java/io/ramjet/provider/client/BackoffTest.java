package io.ramjet.provider.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pauses of a failover's search for a group's next master. */
class BackoffTest {

    @Test
    void pausesDoubleFromFiftyMillisecondsAndNeverExceedAHundred() {
        Backoff backoff = new Backoff(30_000);
        List<Long> pauses = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            pauses.add(backoff.nextPauseMillis());
        }
        assertEquals(List.of(50L, 100L, 100L, 100L, 100L, 100L), pauses,
                "a new master is found within 100 ms of the NameServers naming it");
        assertFalse(backoff.expired());
    }
}
