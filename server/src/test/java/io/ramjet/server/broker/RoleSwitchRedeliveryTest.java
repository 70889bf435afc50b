package io.ramjet.server.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.server.broker.BrokerTestClient.Received;
import io.ramjet.server.broker.replication.ReplicationConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two master changes on one data directory, as a controlled broker makes them (close
 * the broker, open a new one in the new role): master 1 hands over to 3 without a crash, 3
 * redelivers what 1 had handed out, and 1, master again, must still flag it as redelivered.
 */
class RoleSwitchRedeliveryTest {

    private static final SubscriptionRef ORDERS = SubscriptionRef.queue("orders");

    @TempDir
    Path firstDir;
    @TempDir
    Path thirdDir;

    private static Broker master(Path dir, long brokerId) throws Exception {
        return BrokerTestSupport.start(BrokerTestSupport.config(dir).toBuilder().brokerId(brokerId).build()
                .withReplication(ReplicationConfig.DEFAULT));
    }

    private static Broker slave(Path dir, long brokerId, Broker master) throws Exception {
        return BrokerTestSupport.start(BrokerTestSupport.config(dir).toBuilder().brokerId(brokerId).build()
                .withReplication(master.config().replication().asSlaveOf(master.address())));
    }

    /** Pulls the one message of the queue on {@code broker}, acknowledging nothing. */
    private static Received pullOne(Broker broker, BrokerTestClient client, long consumer) throws Exception {
        client.subscribe(ORDERS, consumer);
        List<Received> got = client.pull(ORDERS, consumer, 10, 5_000);
        assertEquals(1, got.size(), "one message on " + broker.address() + ": " + got);
        return got.get(0);
    }

    @Test
    void aMessageHandedOutUnderEachOfTwoMastersComesBackFlaggedAfterTheSecondHandsBack() throws Exception {
        Broker first = master(firstDir, 1);
        Broker third = slave(thirdDir, 3, first);
        try (BrokerTestClient client = new BrokerTestClient(first.address())) {
            client.send("orders", DestinationKind.QUEUE, 0, "p0-1");
            assertEquals(1, pullOne(first, client, 1).deliveryCount());
            ReplicationTest.awaitCaughtUp(third, first);
            // the controllers move the master: the new one stops following, the old one writes on a little
            third.close();
            client.send("orders", DestinationKind.QUEUE, 1, "p0-2");
        } finally {
            first.close();
            third.close();
        }
        third = master(thirdDir, 3);
        first = slave(firstDir, 1, third);
        try (BrokerTestClient client = new BrokerTestClient(third.address())) {
            Received again = pullOne(third, client, 2);
            assertTrue(again.deliveryCount() > 1, "the new master flags it: " + again);
            ReplicationTest.awaitCaughtUp(first, third);
        } finally {
            third.close();
            first.close();
        }
        first = master(firstDir, 1);
        try (BrokerTestClient client = new BrokerTestClient(first.address())) {
            Received last = pullOne(first, client, 3);
            assertTrue(last.deliveryCount() > 1, "the master of the third epoch flags it: " + last);
        } finally {
            first.close();
        }
    }
}
