package io.ramjet.provider.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.model.DestinationKind;
import io.ramjet.provider.client.ClientException.Outcome;
import io.ramjet.provider.client.ClientException.Reason;
import io.ramjet.provider.message.SerializationAllowList;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The failover policy over an in-memory broker whose failures the test chooses. */
class FailoverRamjetClientTest {

    private static final ConnectionInfo CONNECTION = new ConnectionInfo("c", List.of("in-memory:1"), null, null,
            Duration.ofSeconds(2), SerializationAllowList.DEFAULT);

    private final InMemoryBrokerClient.Broker broker = new InMemoryBrokerClient.Broker();
    private final RamjetClient client = new FailoverRamjetClient(broker.client(CONNECTION), CONNECTION);

    @AfterEach
    void close() {
        client.close();
    }

    private static OutgoingMessage message() {
        return new OutgoingMessage("q", DestinationKind.QUEUE, true, 0, 0, new byte[0], new byte[] {1});
    }

    private static ClientException failure(Reason reason, Outcome outcome) {
        return new ClientException(reason, outcome, "injected " + reason, null);
    }

    /** A connection whose sends wait only 200 ms for their group's next master. */
    private static ConnectionInfo impatientConnection() {
        ClientOptions quick = ClientOptions.fromUrlOptions(Map.of(ClientOptions.FAILOVER_TIMEOUT, "200"), Set.of());
        return new ConnectionInfo("c", List.of("in-memory:1"), null, null, Duration.ofSeconds(2),
                SerializationAllowList.DEFAULT, quick);
    }

    /** Waits, up to five seconds, until {@code count} sends reached the broker. */
    private void awaitSendAttempts(int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (broker.sendAttempts() < count && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    private static ClientException failureOf(Future<?> call) throws InterruptedException {
        ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(5, TimeUnit.SECONDS));
        return (ClientException) e.getCause();
    }

    @Test
    void aSendWhoseMasterIsGoneIsResentToTheGroupsMasterOnceNamed() throws Exception {
        broker.failSends(1, failure(Reason.CONNECTION_LOST, Outcome.OUTCOME_UNKNOWN));
        client.send(message(), 0).get(5, TimeUnit.SECONDS);
        assertEquals(2, broker.sendAttempts());
        assertTrue(broker.mastersAsked() >= 1);
        assertTrue(broker.routedAround().isEmpty(), "stays with its group");
        assertEquals(1, broker.unacknowledged("q"));
    }

    @Test
    void aSendRefusedAsNotMasterWaitsWhileNoMasterIsNamedThenGoesToTheNewOne() throws Exception {
        broker.failSends(1, failure(Reason.NOT_MASTER, Outcome.CERTAINLY_NOT_APPLIED));
        broker.unregister();
        CompletableFuture<Void> send = client.send(message(), 0);
        while (broker.mastersAsked() < 2) {
            Thread.onSpinWait();
        }
        assertFalse(send.isDone(), "no master named yet");
        broker.register();

        send.get(5, TimeUnit.SECONDS);
        assertEquals(1, broker.unacknowledged("q"));
    }

    @Test
    void withNoMasterWithinTheFailoverTimeoutASendGoesAroundTheGroupWithoutItsProducer() throws Exception {
        ConnectionInfo connection = impatientConnection();
        broker.unregister();
        broker.failSends(1, failure(Reason.CONNECTION_LOST, Outcome.OUTCOME_UNKNOWN));
        OutgoingMessage sent = new OutgoingMessage("q", DestinationKind.QUEUE, true, 0, 0, new byte[0], new byte[] {1},
                42, 7);
        try (RamjetClient impatient = new FailoverRamjetClient(broker.client(connection), connection)) {
            impatient.send(sent, 0).get(5, TimeUnit.SECONDS);
        }
        assertEquals(List.of(InMemoryBrokerClient.ADDRESS), broker.routedAround());
        // another group may hold a later message of this producer: the resend there goes without it
        assertEquals(List.of(42L, 0L), broker.sendsSeen().stream().map(OutgoingMessage::producerId).toList());
        assertEquals(2, broker.sendAttempts());
    }

    /**
     * A send the lost master may have stored, sent elsewhere after the failover timeout, where it
     * is refused without being stored: its outcome is still unknown, not certainly unapplied.
     */
    @Test
    void aSendInDoubtThatFailsElsewhereTooHasAnUnknownOutcome() throws Exception {
        ConnectionInfo connection = impatientConnection();
        broker.unregister();
        broker.failNextSends(failure(Reason.CONNECTION_LOST, Outcome.OUTCOME_UNKNOWN),
                failure(Reason.UNREACHABLE, Outcome.CERTAINLY_NOT_APPLIED));
        OutgoingMessage sent = new OutgoingMessage("q", DestinationKind.QUEUE, true, 0, 0, new byte[0], new byte[] {1},
                42, 7);
        try (RamjetClient impatient = new FailoverRamjetClient(broker.client(connection), connection)) {
            ClientException failed = failureOf(impatient.send(sent, 0));
            assertFalse(failed.certainlyNotApplied(), "outcome: " + failed.getMessage());
            assertEquals(Reason.CONNECTION_LOST, failed.reason());
        }
        assertEquals(2, broker.sendAttempts());
    }

    @Test
    void aSendTheUnreachableMasterCertainlyDidNotStoreGoesAroundTheGroupAtOnceWithoutItsProducer() throws Exception {
        broker.unregister();
        broker.failSends(1, failure(Reason.UNREACHABLE, Outcome.CERTAINLY_NOT_APPLIED));
        OutgoingMessage sent = new OutgoingMessage("q", DestinationKind.QUEUE, true, 0, 0, new byte[0], new byte[] {1},
                42, 7);
        client.send(sent, 0).get(2, TimeUnit.SECONDS);
        assertEquals(List.of(InMemoryBrokerClient.ADDRESS), broker.routedAround());
        assertEquals(List.of(42L, 0L), broker.sendsSeen().stream().map(OutgoingMessage::producerId).toList());
    }

    /**
     * A later send the unreachable master certainly did not store would be moved at once, to
     * wherever its route leads (here, as after a failover, the group's master again), while the
     * earlier send in doubt waits: it waits behind that one, so the producer's order holds.
     */
    @Test
    void aSendCertainlyNotStoredDoesNotOvertakeAnEarlierSendInDoubt() throws Exception {
        OutgoingMessage first = new OutgoingMessage("q", DestinationKind.QUEUE, true, 0, 0, new byte[0],
                new byte[] {1}, 42, 1);
        OutgoingMessage second = new OutgoingMessage("q", DestinationKind.QUEUE, true, 0, 0, new byte[0],
                new byte[] {2}, 42, 2);
        broker.holdSends(1);
        CompletableFuture<Void> inDoubt = client.send(first, 0);
        broker.failSends(1, failure(Reason.UNREACHABLE, Outcome.CERTAINLY_NOT_APPLIED));
        CompletableFuture<Void> notStored = client.send(second, 0);
        awaitSendAttempts(2);
        broker.failHeldSends(failure(Reason.CONNECTION_LOST, Outcome.OUTCOME_UNKNOWN));

        inDoubt.get(5, TimeUnit.SECONDS);
        notStored.get(5, TimeUnit.SECONDS);
        assertEquals(List.of((byte) 1, (byte) 2), broker.storedFirstBytes("q"));
    }

    /**
     * A send the unreachable master certainly did not store is being moved (its move not yet
     * answered) when the recovery has ended: a later send of the producer joins the moved ones
     * instead of going straight out ahead of them.
     */
    @Test
    void aLaterSendDoesNotOvertakeOneBeingMoved() throws Exception {
        OutgoingMessage first = new OutgoingMessage("q", DestinationKind.QUEUE, true, 0, 0, new byte[0],
                new byte[] {1}, 42, 1);
        OutgoingMessage second = new OutgoingMessage("q", DestinationKind.QUEUE, true, 0, 0, new byte[0],
                new byte[] {2}, 42, 2);
        broker.failSends(1, failure(Reason.UNREACHABLE, Outcome.CERTAINLY_NOT_APPLIED));
        broker.holdSends(1);
        CompletableFuture<Void> moved = client.send(first, 0);
        awaitSendAttempts(2);
        CompletableFuture<Void> later = client.send(second, 0);
        broker.storeHeldSends();

        moved.get(5, TimeUnit.SECONDS);
        later.get(5, TimeUnit.SECONDS);
        assertEquals(List.of((byte) 1, (byte) 2), broker.storedFirstBytes("q"));
    }

    @Test
    void anIdempotentSendThatHadNoAnswerIsSentAgainToTheGroupsMaster() throws Exception {
        broker.failSends(1, failure(Reason.TIMEOUT, Outcome.OUTCOME_UNKNOWN));
        OutgoingMessage sent = new OutgoingMessage("q", DestinationKind.QUEUE, true, 0, 0, new byte[0], new byte[] {1},
                42, 1);
        client.send(sent, 0).get(5, TimeUnit.SECONDS);
        assertEquals(List.of(42L, 42L), broker.sendsSeen().stream().map(OutgoingMessage::producerId).toList());
        assertTrue(broker.routedAround().isEmpty(), "stays with its group");
    }

    @Test
    void aSendWithoutProducerThatHadNoAnswerIsNotResent() throws Exception {
        broker.failSends(1, failure(Reason.TIMEOUT, Outcome.OUTCOME_UNKNOWN));
        assertEquals(Reason.TIMEOUT, failureOf(client.send(message(), 0)).reason());
        assertEquals(1, broker.sendAttempts());
    }

    @Test
    void aRefusedSendIsNotResent() throws Exception {
        broker.failSends(1, failure(Reason.RESOURCE, Outcome.CERTAINLY_NOT_APPLIED));
        assertEquals(Reason.RESOURCE, failureOf(client.send(message(), 0)).reason());
        assertEquals(1, broker.sendAttempts());
        assertTrue(broker.routedAround().isEmpty());
    }

    @Test
    void aTransactionalSendIsNeverResent() throws Exception {
        broker.failSends(1, failure(Reason.CONNECTION_LOST, Outcome.OUTCOME_UNKNOWN));
        failureOf(client.sendInTransaction(message(), 0, 7, broker -> { }));
        assertEquals(1, broker.sendAttempts());
    }

    @Test
    void aBusyCoordinatorIsAskedAgainUntilItDecides() throws Exception {
        broker.failCommits(failure(Reason.BUSY, Outcome.CERTAINLY_NOT_APPLIED));
        ClientException settled = failureOf(client.commitTransaction(InMemoryBrokerClient.ADDRESS, 7, List.of()));
        assertTrue(broker.commitAttempts() > 1, "attempts: " + broker.commitAttempts());
        assertEquals(Outcome.CERTAINLY_NOT_APPLIED, settled.outcome(), "busy every time: never applied");
    }

    @Test
    void aCommitRefusedWhileTheInSyncSetIsShortIsAskedAgainAndPassesOnceTheSetIsWhole() throws Exception {
        broker.failCommits(failure(Reason.TOO_FEW_REPLICAS, Outcome.CERTAINLY_NOT_APPLIED));
        CompletableFuture<Void> commit = client.commitTransaction(InMemoryBrokerClient.ADDRESS, 7, List.of());
        assertTrue(broker.awaitCommitAttempts(2, Duration.ofSeconds(5)));
        broker.failCommits(null);

        commit.get(5, TimeUnit.SECONDS);
    }

    /** How a commit decision settles when its first two answers are lost and the broker then says {@code then}. */
    private ClientException settledAfterLostAnswers(ClientException then) throws InterruptedException {
        broker.failCommits(failure(Reason.TIMEOUT, Outcome.OUTCOME_UNKNOWN));
        CompletableFuture<Void> commit = client.commitTransaction(InMemoryBrokerClient.ADDRESS, 7, List.of());
        assertTrue(broker.awaitCommitAttempts(2, Duration.ofSeconds(5)));
        broker.failCommits(then);
        return failureOf(commit);
    }

    @Test
    void aDecisionWhoseMasterDiedIsAskedOfTheGroupsNewMasterAndSettles() throws Exception {
        broker.failCommits(failure(Reason.CONNECTION_LOST, Outcome.OUTCOME_UNKNOWN));
        CompletableFuture<Void> commit = client.commitTransaction(InMemoryBrokerClient.ADDRESS, 7, List.of());
        assertTrue(broker.awaitCommitAttempts(1, Duration.ofSeconds(5)));
        broker.moveMaster("in-memory:2");
        broker.failCommits(null);

        commit.get(5, TimeUnit.SECONDS);

        List<String> addresses = broker.commitAddresses();
        assertEquals("in-memory:2", addresses.get(addresses.size() - 1), "decided by the new master: " + addresses);
    }

    @Test
    void aDecisionRefusedAfterAnAnswerWasLostHasAnUnknownOutcome() throws Exception {
        ClientException settled = settledAfterLostAnswers(
                failure(Reason.UNKNOWN_TRANSACTION, Outcome.CERTAINLY_NOT_APPLIED));
        assertEquals(Reason.UNKNOWN_TRANSACTION, settled.reason());
        assertEquals(Outcome.OUTCOME_UNKNOWN, settled.outcome(), "an earlier attempt may have committed");
    }

    @Test
    void aRolledBackTransactionIsCertainlyNotCommittedWhateverCameBefore() throws Exception {
        ClientException settled = settledAfterLostAnswers(failure(Reason.ROLLED_BACK, Outcome.CERTAINLY_NOT_APPLIED));
        assertEquals(Outcome.CERTAINLY_NOT_APPLIED, settled.outcome());
    }
}
