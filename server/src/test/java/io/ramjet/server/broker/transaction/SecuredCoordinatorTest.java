package io.ramjet.server.broker.transaction;

import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import io.ramjet.server.broker.security.PasswordHash;
import io.ramjet.server.broker.transaction.TxClient.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Brokers that refuse anonymous connections and hold no cluster secret: a prepared participant
 * whose owner vanished asks the coordinator as its cluster user (the coordinator's configured
 * {@code clusterUser}); without one it cannot learn the decision and keeps the transaction in
 * doubt (never guessing).
 */
class SecuredCoordinatorTest {

    private static final String PASSWORD = "secret-password";

    @TempDir
    Path dir;

    private Broker coordinator;
    private Broker participant;
    private TxClient reader;

    private void start(boolean clusterUser) throws Exception {
        String hash = PasswordHash.of(PASSWORD.toCharArray()).encoded();
        Path users = Files.writeString(dir.resolve("users.properties"), "app = " + hash + "\nbroker = " + hash + "\n");
        // the coordinator answers a login as its own clusterUser (these brokers hold no cluster secret)
        coordinator = TxBrokers.start(TxBrokers.config(dir.resolve("coordinator"), 15).withSecurity(users, false)
                .toBuilder().clusterSecret(null).clusterUser("broker").build());
        BrokerConfigBuilder participantConfig = TxBrokers.config(dir.resolve("participant"), 15)
                .withSecurity(users, false).toBuilder().clusterSecret(null);
        if (clusterUser) {
            participantConfig.clusterUser("broker").clusterPassword(PASSWORD);
        }
        participant = TxBrokers.start(participantConfig.build());
        reader = client(participant);
        reader.subscribe("in", 1);
        reader.subscribe("out", 2);
    }

    private static TxClient client(Broker broker) throws Exception {
        TxClient client = new TxClient(broker.address());
        client.authenticate("app", PASSWORD);
        return client;
    }

    @AfterEach
    void stop() {
        if (reader != null) {
            reader.close();
        }
        if (participant != null) {
            participant.close();
        }
        if (coordinator != null) {
            coordinator.close();
        }
    }

    /** A client consumed "job" from the participant, sent "result" there, prepared it, and the coordinator committed. */
    private void committedAtTheCoordinatorAfterTheClientVanished(long id) throws Exception {
        try (TxClient client = client(participant); TxClient toCoordinator = client(coordinator)) {
            reader.send("in", 0, "job", 0);
            client.subscribe("in", 7);
            List<Received> taken = client.pull("in", 7, 1, 1000);
            assertEquals(1, taken.size());
            client.send("out", 0, "result", id);
            client.prepare(id, "", coordinator.address(), TxClient.acks("in", taken));
            toCoordinator.send("out", 0, "there", id);
            toCoordinator.commit(id);
        }
    }

    @Test
    void aParticipantAsksASecuredCoordinatorAsItsClusterUser() throws Exception {
        start(true);
        committedAtTheCoordinatorAfterTheClientVanished(41);
        TxBrokers.await("the participant's commit", () -> participant.transactionCount() == 0);
        assertEquals(List.of("result"), reader.drain("out", 2, 100).stream().map(Received::body).toList());
    }

    @Test
    void withoutAClusterUserTheParticipantKeepsTheTransactionInDoubt() throws Exception {
        start(false);
        committedAtTheCoordinatorAfterTheClientVanished(42);
        Duration checks = TxBrokers.CHECK_AFTER.plus(TxBrokers.CHECK_INTERVAL.multipliedBy(10));
        await().during(checks).atMost(checks.plusSeconds(5)).untilAsserted(() -> assertEquals(1,
                participant.transactionCount(), "refused by the coordinator, the participant must not guess"));
        assertEquals(List.of(), reader.pull("out", 2, 10, 100));
    }
}
