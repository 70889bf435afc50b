package io.ramjet.server.broker.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class RefusalsTest {

    /** The statuses clients saw for these situations before the domain had its own refusals. */
    private static final Map<Refusal, Integer> SEEN_BY_CLIENTS = new EnumMap<>(Map.ofEntries(
            Map.entry(Refusal.BAD_REQUEST, ErrorStatus.BAD_REQUEST),
            Map.entry(Refusal.NOT_FOUND, ErrorStatus.NOT_FOUND),
            Map.entry(Refusal.UNKNOWN_DESTINATION, ErrorStatus.UNKNOWN_DESTINATION),
            Map.entry(Refusal.SUBSCRIPTION_CONFLICT, ErrorStatus.SUBSCRIPTION_CONFLICT),
            Map.entry(Refusal.DISK_FULL, ErrorStatus.STORE_FULL),
            Map.entry(Refusal.UNKNOWN_CONSUMER, ErrorStatus.UNKNOWN_CONSUMER),
            Map.entry(Refusal.NOT_HELD, ErrorStatus.DELIVERY_NOT_HELD),
            Map.entry(Refusal.TX_ROLLED_BACK, ErrorStatus.TRANSACTION_ROLLED_BACK),
            Map.entry(Refusal.TX_UNKNOWN, ErrorStatus.UNKNOWN_TRANSACTION),
            Map.entry(Refusal.TX_CONFLICT, ErrorStatus.TRANSACTION_CONFLICT),
            Map.entry(Refusal.CLIENT_ID_IN_USE, ErrorStatus.CLIENT_ID_IN_USE),
            Map.entry(Refusal.NOT_AUTHENTICATED, ErrorStatus.AUTHENTICATION_FAILED),
            Map.entry(Refusal.NOT_AUTHORIZED, ErrorStatus.NOT_AUTHORIZED),
            Map.entry(Refusal.NOT_MASTER, ErrorStatus.NOT_MASTER),
            Map.entry(Refusal.REPLICA_REFUSED, ErrorStatus.REPLICA_REFUSED),
            Map.entry(Refusal.TOO_FEW_REPLICAS, ErrorStatus.TOO_FEW_REPLICAS)));

    @Test
    void everyRefusalHasTheStatusClientsKnow() {
        for (Refusal refusal : Refusal.values()) {
            assertEquals(SEEN_BY_CLIENTS.get(refusal), Refusals.status(refusal), refusal.name());
        }
    }

    @Test
    void aRefusalInsideAFailedStageKeepsItsStatusAndMessage() {
        Throwable wire = Refusals.toWire(new CompletionException(new BrokerException(Refusal.TX_ROLLED_BACK, "gone")));
        RemotingCommandException refused = assertInstanceOf(RemotingCommandException.class, wire);
        assertEquals(ErrorStatus.TRANSACTION_ROLLED_BACK, refused.status());
        assertEquals("gone", refused.getMessage());
    }

    @Test
    void aBadArgumentIsABadRequestAndAnythingElseStaysAFailure() {
        RemotingCommandException bad = assertInstanceOf(RemotingCommandException.class,
                Refusals.toWire(new IllegalArgumentException("queue id 9")));
        assertEquals(ErrorStatus.BAD_REQUEST, bad.status());
        IllegalStateException bug = new IllegalStateException("bug");
        assertSame(bug, Refusals.toWire(bug));
    }
}
