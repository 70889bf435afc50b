package io.ramjet.server.broker.destination;

import io.ramjet.model.DestinationKind;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DestinationTableTest {

    @Test
    void firstUseCreatesWithTheDefaultQueueCount() {
        DestinationTable t = new DestinationTable(true, 4);
        Destination d = t.findOrCreate(DestinationKind.QUEUE, "orders");
        assertEquals(4, d.queueCount());
        assertSame(d, t.findOrCreate(DestinationKind.QUEUE, "orders"));
    }

    @Test
    void withoutAutoCreateAnUnknownDestinationIsRefused() {
        DestinationTable t = new DestinationTable(false, 4);
        UnknownDestinationException e = assertThrows(UnknownDestinationException.class, () -> t.findOrCreate(DestinationKind.TOPIC, "prices"));
        assertTrue(e.getMessage().contains("prices"));
    }

    @Test
    void queuesAndTopicsHaveSeparateNamespaces() {
        DestinationTable t = new DestinationTable(true, 1);
        Destination q = t.findOrCreate(DestinationKind.QUEUE, "x");
        Destination topic = t.findOrCreate(DestinationKind.TOPIC, "x");
        assertNotEquals(q.storageName(), topic.storageName());
        assertEquals(2, t.list().size());
    }

    @Test
    void explicitCreateKeepsTheExistingDestination() {
        DestinationTable t = new DestinationTable(false, 1);
        Destination first = t.create(new Destination("a", DestinationKind.QUEUE, 8, false));
        assertSame(first, t.create(new Destination("a", DestinationKind.QUEUE, 2, false)));
        assertTrue(t.delete(DestinationKind.QUEUE, "a").isPresent());
        assertTrue(t.find(DestinationKind.QUEUE, "a").isEmpty());
    }

    @Test
    void namesThatCouldEscapeTheDataDirectoryAreRefused() {
        for (String bad : new String[] {"", "a/b", "..", "a\\b", "tab\there", "x".repeat(5000)}) {
            assertThrows(IllegalArgumentException.class, () -> new Destination(bad, DestinationKind.QUEUE, 1, false), bad);
        }
    }

    @Test
    void clientsMayNameUpToTheAcceptedMaximumAndTheBrokerDerivesLongerNames() {
        Destination.validateClientName("é".repeat(Destination.MAX_NAME_BYTES / 2));
        assertThrows(IllegalArgumentException.class, () -> Destination.validateClientName("x".repeat(1025)));
        new Destination("DLQ." + "x".repeat(Destination.MAX_NAME_BYTES), DestinationKind.QUEUE, 1, false);
    }
}
