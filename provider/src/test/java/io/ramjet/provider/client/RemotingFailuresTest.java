package io.ramjet.provider.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnectionException;
import io.ramjet.protocol.remoting.RemotingTimeoutException;
import io.ramjet.provider.client.ClientException.Outcome;
import io.ramjet.provider.client.ClientException.Reason;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class RemotingFailuresTest {

    @Test
    void everyStatusButAnInternalErrorIsCertainlyNotApplied() throws IllegalAccessException {
        for (Field f : ErrorStatus.class.getFields()) {
            if (f.getType() == int.class && Modifier.isStatic(f.getModifiers())) {
                int status = f.getInt(null);
                ClientException c = RemotingFailures.of(new RemotingCommandException(status, f.getName()));
                Outcome expected = status == ErrorStatus.INTERNAL_ERROR
                        ? Outcome.OUTCOME_UNKNOWN : Outcome.CERTAINLY_NOT_APPLIED;
                assertEquals(expected, c.outcome(), f.getName());
                assertEquals(f.getName(), c.getMessage());
            }
        }
    }

    @Test
    void aStatusNoTableKnowsMayHaveApplied() {
        ClientException c = RemotingFailures.of(new RemotingCommandException(9_999, "new"));
        assertEquals(Reason.INTERNAL, c.reason());
        assertEquals(Outcome.OUTCOME_UNKNOWN, c.outcome());
    }

    @Test
    void statusesBecomeTheReasonsTheFacadeMaps() {
        assertEquals(Reason.NOT_FOUND, reason(ErrorStatus.UNKNOWN_DESTINATION));
        assertEquals(Reason.RESOURCE, reason(ErrorStatus.STORE_FULL));
        assertEquals(Reason.SECURITY, reason(ErrorStatus.AUTHENTICATION_FAILED));
        assertEquals(Reason.ROLLED_BACK, reason(ErrorStatus.TRANSACTION_ROLLED_BACK));
        assertEquals(Reason.NOT_ATTACHED, reason(ErrorStatus.UNKNOWN_CONSUMER));
        assertEquals(Reason.BUSY, reason(ErrorStatus.BUSY));
        assertEquals(Reason.NOT_MASTER, reason(ErrorStatus.NOT_MASTER));
        assertEquals(Reason.TOO_FEW_REPLICAS, reason(ErrorStatus.TOO_FEW_REPLICAS));
    }

    @Test
    void aMasterIsGoneWhenUnreachableLostOrNoLongerMasterButNotWhenBusy() {
        assertTrue(RemotingFailures.of(new RemotingCommandException(ErrorStatus.NOT_MASTER, "")).isMasterGone());
        assertTrue(RemotingFailures.of(new RemotingConnectionException("closed")).isMasterGone());
        assertFalse(RemotingFailures.of(new RemotingCommandException(ErrorStatus.BUSY, "")).isMasterGone());
    }

    private static Reason reason(int status) {
        return RemotingFailures.of(new RemotingCommandException(status, "")).reason();
    }

    @Test
    void aConnectionNeverOpenedIsCertainlyNotAppliedAndALostOneUnknown() {
        ClientException never = RemotingFailures.of(new RemotingConnectionException("refused",
                new ConnectException("Connection refused")));
        assertEquals(Reason.UNREACHABLE, never.reason());
        assertEquals(Outcome.CERTAINLY_NOT_APPLIED, never.outcome());
        ClientException lost = RemotingFailures.of(new RemotingConnectionException("closed"));
        assertEquals(Reason.CONNECTION_LOST, lost.reason());
        assertEquals(Outcome.OUTCOME_UNKNOWN, lost.outcome());
        ClientException late = RemotingFailures.of(new RemotingTimeoutException("late"));
        assertEquals(Reason.TIMEOUT, late.reason());
        assertEquals(Outcome.OUTCOME_UNKNOWN, late.outcome());
    }

    @Test
    void theFailureIsFoundInsideWhatWrapsIt() {
        ClientException inner = ClientException.refused(Reason.INVALID, "too large");
        assertSame(inner, RemotingFailures.of(new CompletionException(new ExecutionException(inner))));
        assertEquals(Reason.RESOURCE, RemotingFailures.of(new CompletionException(
                new RemotingCommandException(ErrorStatus.STORE_FULL, "full"))).reason());
    }
}
