package io.ramjet.provider.jms.transaction;

import io.ramjet.provider.client.ConnectionInfo;
import io.ramjet.provider.client.RemotingRamjetClient;
import io.ramjet.provider.message.SerializationAllowList;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Child JVM of {@link TransactionCrashTest} that drives the two-broker commit protocol by hand
 * and stops half-way, where the JMS client offers no place to stop: it sends one message of a
 * transaction to queue {@code a} (on the coordinator) and one to queue {@code b} (on the
 * participant), prepares the participant, and then, in mode {@code committed}, records the
 * commit on the coordinator only; in mode {@code prepared}, decides nothing. It prints
 * {@code READY} and halts. Arguments: NameServer, coordinator address, a, b, mode.
 */
public final class CrashingTwoBrokerClient {

    private CrashingTwoBrokerClient() {
    }

    public static void main(String[] args) throws Exception {
        String coordinator = args[1];
        boolean commitOnCoordinator = args[4].equals("committed");
        RemotingRamjetClient client = new RemotingRamjetClient(new ConnectionInfo(UUID.randomUUID().toString(),
                List.of(args[0]), null, null, Duration.ofSeconds(5), SerializationAllowList.fromSystemProperties()));
        long id = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        String[] touched = new String[2];
        client.send(RawMessages.text(args[2], "on the coordinator"), 0, id, address -> touched[0] = address).get();
        client.send(RawMessages.text(args[3], "on the participant"), 0, id, address -> touched[1] = address).get();
        if (!touched[0].equals(coordinator) || touched[1].equals(coordinator)) {
            throw new IllegalStateException("queues are not where the test put them: " + List.of(touched));
        }
        client.prepareTransaction(touched[1], id, "", coordinator, List.of()).get();
        if (commitOnCoordinator) {
            client.endTransaction(coordinator, id, "", true, List.of()).get();
        }
        System.out.println("READY");
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
