package io.ramjet.server.broker.transaction;

import io.ramjet.model.TxState;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.transaction.TxClient.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Two brokers in one transaction: a prepared participant whose owner vanished asks the
 * coordinator, which answers what it recorded, or presumes abort when it recorded nothing.
 */
class CoordinatorTest {

    @TempDir
    Path coordinatorDir;
    @TempDir
    Path participantDir;

    private Broker coordinator;
    private Broker participant;
    private TxClient reader;

    @BeforeEach
    void start() throws Exception {
        coordinator = TxBrokers.start(coordinatorDir);
        participant = TxBrokers.start(participantDir);
        reader = new TxClient(participant.address());
        reader.subscribe("in", 1);
        reader.subscribe("out", 2);
    }

    @AfterEach
    void stop() {
        reader.close();
        participant.close();
        coordinator.close();
    }

    /** A client that consumed "job" from the participant, sent "result" there and prepared it; then it vanished. */
    private void prepareOnParticipantAndVanish(long id, TxClient client) throws Exception {
        reader.send("in", 0, "job", 0);
        client.subscribe("in", 7);
        List<Received> taken = client.pull("in", 7, 1, 1000);
        assertEquals(1, taken.size());
        client.send("out", 0, "result", id);
        client.prepare(id, "", coordinator.address(), TxClient.acks("in", taken));
    }

    @Test
    void aParticipantCommitsWhenTheCoordinatorRecordedTheCommit() throws Exception {
        try (TxClient client = new TxClient(participant.address());
             TxClient toCoordinator = new TxClient(coordinator.address())) {
            prepareOnParticipantAndVanish(31, client);
            toCoordinator.send("out", 0, "there", 31);
            toCoordinator.commit(31);
        }
        TxBrokers.await("the participant's commit", () -> participant.transactionCount() == 0);
        assertEquals(List.of("result"), reader.drain("out", 2, 100).stream().map(Received::body).toList());
        assertEquals(List.of(), reader.pull("in", 1, 10, 100));
    }

    @Test
    void aCoordinatorWithoutTraceOfItPresumesAbortAndRefusesALateCommit() throws Exception {
        try (TxClient client = new TxClient(participant.address())) {
            prepareOnParticipantAndVanish(32, client);
        }
        TxBrokers.await("the participant's rollback", () -> participant.transactionCount() == 0);
        List<Received> again = reader.pull("in", 1, 10, 1000);
        assertEquals(List.of("job"), again.stream().map(Received::body).toList());
        assertEquals(2, again.get(0).deliveryCount());
        assertEquals(List.of(), reader.pull("out", 2, 10, 100));

        try (TxClient late = new TxClient(coordinator.address())) {
            RemotingCommandException refused = assertThrows(RemotingCommandException.class, () -> late.commit(32));
            assertEquals(ErrorStatus.TRANSACTION_ROLLED_BACK, refused.status());
            assertEquals(TxState.ROLLED_BACK, late.query(32));
        }
    }

    @Test
    void aCoordinatorWhoseOwnerIsConnectedAnswersOpen() throws Exception {
        try (TxClient owner = new TxClient(coordinator.address());
             TxClient asker = new TxClient(coordinator.address())) {
            owner.send("out", 0, "pending", 33);
            assertEquals(TxState.OPEN, asker.query(33));
            owner.commit(33);
            assertEquals(TxState.COMMITTED, asker.query(33));
        }
    }

    @Test
    void aPreparedParticipantWithALiveOwnerIsNotDecidedByTheCoordinator() throws Exception {
        try (TxClient client = new TxClient(participant.address(), id -> TxState.OPEN)) {
            prepareOnParticipantAndVanish(34, client);
            TxBrokers.await("a check", () -> client.checked.size() >= 4);
            assertEquals(1, participant.transactionCount());
            client.commit(34);
        }
        assertEquals(List.of("result"), reader.drain("out", 2, 100).stream().map(Received::body).toList());
    }
}
