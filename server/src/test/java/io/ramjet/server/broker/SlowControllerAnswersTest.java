package io.ramjet.server.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.SubscriptionType;
import io.ramjet.server.broker.ha.BrokerRole;
import io.ramjet.server.broker.ha.ControlledBroker;
import io.ramjet.server.broker.replication.ReplicationConfig;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A master whose controllers answer slowly (a loaded machine right after a failover) keeps its
 * lease as long as each answer comes within the lease of its heartbeat: heartbeats go out every
 * {@code controllerHeartbeatMs} whether or not the one before was answered, so one slow answer
 * does not delay the next heartbeat, and a master just elected serves its clients, durable
 * subscriptions included, without being fenced between two answers.
 */
class SlowControllerAnswersTest {

    /** Half the broker timeout: every answer still renews the lease, with half of it left. */
    private static final Duration ANSWER_DELAY = ControllerCluster.BROKER_TIMEOUT.dividedBy(2);
    private static final Duration ELECTION = ControllerCluster.BROKER_TIMEOUT.multipliedBy(6);
    /** Several heartbeat rounds at the slow answers' pace. */
    private static final Duration WATCH = ControllerCluster.BROKER_TIMEOUT.multipliedBy(2);

    @TempDir
    Path dir;

    @Test
    void aMasterElectedWhileTheControllersAnswerSlowlyKeepsItsLeaseAndTakesSubscriptions() throws Exception {
        try (ControllerCluster cluster = new ControllerCluster(dir, 1)) {
            String slow = cluster.slowAnswers(ANSWER_DELAY);
            ControlledBroker first = cluster.start(cluster.brokerConfig(1, ReplicationConfig.Mode.ASYNC, 1, slow));
            ControlledBroker second = cluster.start(cluster.brokerConfig(2, ReplicationConfig.Mode.ASYNC, 1, slow));
            assertEquals(BrokerRole.slaveOf(first.address(), 1), second.role());
            ControllerCluster.await(() -> cluster.inSync().contains(2L), ELECTION,
                    () -> "the committed in-sync set is " + cluster.inSync());

            first.close();
            ControllerCluster.awaitRole(second, BrokerRole.master(2), ELECTION);
            ControllerCluster.await(second::leaseHeld, ELECTION, () -> "the new master never held its lease");

            Awaitility.await().during(WATCH).atMost(WATCH.plusSeconds(2)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(10)).until(second::leaseHeld);
            try (BrokerTestClient client = new BrokerTestClient(second.address())) {
                client.subscribe(new SubscriptionRef("orders", SubscriptionType.DURABLE, "slow-controllers", "sub"), 1);
                client.send("orders", DestinationKind.TOPIC, 0, "after the election");
            }
        }
    }
}
