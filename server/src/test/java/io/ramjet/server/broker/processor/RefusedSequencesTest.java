package io.ramjet.server.broker.processor;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.SendRequest;
import org.junit.jupiter.api.Test;

class RefusedSequencesTest {

    private static SendRequest send(long producer, long sequence) {
        return new SendRequest("q", DestinationKind.QUEUE, 0, true, 0, 0, 0, 0, producer, sequence);
    }

    @Test
    void aLaterSendOfARefusedProducerWaitsUntilTheRefusedOneIsSentAgain() {
        RefusedSequences refused = new RefusedSequences();
        Object connection = new Object();
        refused.refused(connection, send(7, 5));
        assertTrue(refused.any(connection));
        assertTrue(refused.overtakes(connection, send(7, 6)), "6 would hide 5's resend");
        assertFalse(refused.overtakes(connection, send(7, 4)), "an earlier one is no overtaker");
        assertFalse(refused.overtakes(connection, send(9, 6)), "another producer is not held back");
        assertFalse(refused.overtakes(connection, send(7, 5)), "the refused one itself goes");
        assertFalse(refused.overtakes(connection, send(7, 6)), "and after it the rest");
        assertFalse(refused.any(connection));
    }

    @Test
    void theLowestRefusedSequenceCountsAndEachConnectionIsOnItsOwn() {
        RefusedSequences refused = new RefusedSequences();
        Object connection = new Object();
        Object other = new Object();
        refused.refused(connection, send(7, 6));
        refused.refused(connection, send(7, 5));
        assertTrue(refused.overtakes(connection, send(7, 6)));
        assertFalse(refused.overtakes(other, send(7, 6)));
        refused.refused(connection, send(0, 0));
        assertFalse(refused.overtakes(connection, send(0, 0)), "sends of no producer are never held back");
        refused.refused(other, send(3, 1));
        assertTrue(refused.any(other));
    }
}
