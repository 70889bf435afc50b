package io.ramjet.server.remoting;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.command.Permission;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnnouncedDestinationsTest {

    private static final DestinationInfo ORDERS = queue("orders", 4);
    private static final DestinationInfo TEMPORARY = queue("TMP.1.1", 1);

    private static DestinationInfo queue(String name, int queues) {
        return new DestinationInfo(name, DestinationKind.QUEUE, queues, Permission.READ_WRITE);
    }

    private final AnnouncedDestinations announced = new AnnouncedDestinations();

    @Test
    void changesAreOnlyWhatWasCreatedAndDeletedSinceTheLastTelling() {
        announced.registered(List.of(ORDERS, TEMPORARY));
        DestinationInfo created = queue("TMP.1.2", 1);

        AnnouncedDestinations.Changes changes = announced.changesTo(List.of(ORDERS, created)).orElseThrow();

        assertEquals(List.of(created), changes.added());
        assertEquals(List.of(TEMPORARY), changes.removed());
        assertTrue(announced.changesTo(List.of(ORDERS, created)).orElseThrow().none(), "already told");
    }

    @Test
    void destinationWhoseQueueCountChangedIsAnnouncedAgain() {
        announced.registered(List.of(ORDERS));
        DestinationInfo wider = queue("orders", 8);

        assertEquals(List.of(wider), announced.changesTo(List.of(wider)).orElseThrow().added());
    }

    @Test
    void nothingToCompareWithBeforeTheFirstRegistrationOrAfterAFailure() {
        assertTrue(announced.changesTo(List.of(ORDERS)).isEmpty());
        announced.registered(List.of(ORDERS));
        announced.forget();
        assertTrue(announced.changesTo(List.of(ORDERS)).isEmpty());
    }
}
