package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.CreateDestinationRequest;
import io.ramjet.protocol.command.DeleteDestinationRequest;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.command.DestinationList;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.BrokerTestClient.Received;
import io.ramjet.storage.StoreConfig;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a destination costs on disk and which names and creations the broker accepts. */
class StoreLifecycleTest {

    @TempDir
    Path dataDir;

    private static List<String> queueDirectories(Path dataDir) throws Exception {
        Path queues = dataDir.resolve("consumequeue");
        if (!Files.isDirectory(queues)) {
            return List.of();
        }
        try (Stream<Path> list = Files.list(queues)) {
            // the destinations' directories, not the store's pool of first files (".pool")
            return list.map(p -> p.getFileName().toString()).filter(name -> !name.startsWith(".")).sorted().toList();
        }
    }

    private static void await(BooleanSupplier condition, String what) {
        Awaitility.await(what).atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(20)).until(condition::getAsBoolean);
    }

    private static List<String> destinationNames(BrokerTestClient client) throws Exception {
        return client.invoke(CommandCode.LIST_DESTINATIONS, null).header(DestinationList.class).destinations()
                .stream().map(DestinationInfo::name).sorted().toList();
    }

    @Test
    void anyNameTheBrokerAcceptsWorksEndToEndAndALongerOneIsRefused() throws Exception {
        List<String> names = List.of("a".repeat(300), "é".repeat(200), ".".repeat(90) + "x", "z".repeat(1024),
                "é".repeat(512));
        Broker broker = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        try (BrokerTestClient client = new BrokerTestClient(broker.address())) {
            for (String name : names) {
                client.send(name, DestinationKind.QUEUE, 0, "to " + name.length());
            }
            RemotingCommandException tooLong = assertThrows(RemotingCommandException.class,
                    () -> client.send("y".repeat(1025), DestinationKind.QUEUE, 0, "no"));
            assertEquals(ErrorStatus.UNKNOWN_DESTINATION, tooLong.status());
            assertTrue(tooLong.getMessage().contains("1024"), tooLong.getMessage());
            assertEquals(names.stream().sorted().toList(), destinationNames(client));
        } finally {
            broker.close();
        }
        broker = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        try (BrokerTestClient client = new BrokerTestClient(broker.address())) {
            long consumer = 1;
            for (String name : names) {
                SubscriptionRef queue = SubscriptionRef.queue(name);
                client.subscribe(queue, consumer);
                List<Received> got = client.pull(queue, consumer, 10, 0);
                assertEquals(List.of("to " + name.length()), got.stream().map(Received::body).toList(),
                        "after a restart, " + name.length() + " chars");
                consumer++;
            }
            for (String directory : queueDirectories(dataDir)) {
                assertTrue(directory.length() <= 120, directory);
            }
        } finally {
            broker.close();
        }
    }

    @Test
    void deletedDestinationsLeaveNoQueueFilesEvenAfterARestart() throws Exception {
        Broker broker = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        try {
            BrokerTestClient owner = new BrokerTestClient(broker.address());
            try (BrokerTestClient client = new BrokerTestClient(broker.address())) {
                client.send("kept", DestinationKind.QUEUE, 0, "stays");
                client.send("dropped", DestinationKind.QUEUE, 0, "goes");
                String temporary = owner.invoke(CommandCode.CREATE_DESTINATION,
                        CreateDestinationRequest.temporary(DestinationKind.QUEUE)).header(DestinationInfo.class).name();
                client.send(temporary, DestinationKind.QUEUE, 0, "reply");
                assertEquals(3, queueDirectories(dataDir).size());

                client.invoke(CommandCode.DELETE_DESTINATION, new DeleteDestinationRequest("dropped", DestinationKind.QUEUE));
                owner.close();
                await(() -> {
                    try {
                        return queueDirectories(dataDir).equals(List.of("Q%2Ekept"));
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                }, "the deleted queue and the temporary one of the closed connection lose their files");
            }
        } finally {
            broker.close();
        }
        broker = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        try {
            assertEquals(List.of("Q%2Ekept"), queueDirectories(dataDir));
        } finally {
            broker.close();
        }
    }

    @Test
    void withoutAutoCreationOnlyConfiguredDestinationsExist() throws Exception {
        BrokerConfig config = BrokerTestSupport.config(dataDir).withAutoCreateDestinations(false)
                .withDestinations(List.of("orders"), List.of("prices"));
        Broker broker = BrokerTestSupport.start(config);
        try (BrokerTestClient client = new BrokerTestClient(broker.address())) {
            assertEquals(List.of("orders", "prices"), destinationNames(client));
            client.send("orders", DestinationKind.QUEUE, 0, "ok");
            RemotingCommandException send = assertThrows(RemotingCommandException.class,
                    () -> client.send("unknown", DestinationKind.QUEUE, 0, "no"));
            assertEquals(ErrorStatus.UNKNOWN_DESTINATION, send.status());
            RemotingCommandException create = assertThrows(RemotingCommandException.class,
                    () -> client.invoke(CommandCode.CREATE_DESTINATION,
                            new CreateDestinationRequest("unknown", DestinationKind.QUEUE, 0)));
            assertEquals(ErrorStatus.UNKNOWN_DESTINATION, create.status());
            assertTrue(create.getMessage().contains("autoCreateDestinations=false"), create.getMessage());
            String temporary = client.invoke(CommandCode.CREATE_DESTINATION,
                    CreateDestinationRequest.temporary(DestinationKind.QUEUE)).header(DestinationInfo.class).name();
            assertEquals(List.of(temporary, "orders", "prices"), destinationNames(client), "a temporary one too");
        } finally {
            broker.close();
        }
    }

    @Test
    void sendsRefusedOnAFullDiskCreateNoDestination() throws Exception {
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", dataDir.toString())
                .redirectErrorStream(true).start();
        String output = new String(mount.getInputStream().readAllBytes());
        Assumptions.assumeTrue(mount.waitFor() == 0, "cannot mount a tmpfs here (" + output.trim() + ")");
        Path store = dataDir.resolve("broker-data");
        BrokerConfig config = BrokerTestSupport.config(store).withDiskUseLimit(1.0);
        Broker broker = new Broker(config, StoreConfig.defaults(store).withSegmentSize(1 << 20)
                .withMinFreeSpace(4L << 20).withCheckpointInterval(Duration.ofMillis(200)));
        broker.start();
        try (BrokerTestClient client = new BrokerTestClient(broker.address())) {
            client.send("filling", DestinationKind.QUEUE, 0, "first");
            leaveUsable(dataDir, (1 << 20) + (4L << 20) + (1 << 19)); // a second segment fits, a third does not
            String big = "m".repeat(1_000);
            int accepted = 0;
            while (true) {
                try {
                    client.send("filling", DestinationKind.QUEUE, accepted % 2, big);
                    accepted++;
                } catch (RemotingCommandException e) {
                    assertEquals(ErrorStatus.STORE_FULL, e.status());
                    break;
                }
            }
            assertTrue(accepted > 100, "accepted " + accepted);
            for (int i = 0; i < 20; i++) {
                int n = i;
                RemotingCommandException e = assertThrows(RemotingCommandException.class,
                        () -> client.send("new-" + n, DestinationKind.QUEUE, 0, "refused"));
                assertEquals(ErrorStatus.STORE_FULL, e.status());
            }
            assertEquals(List.of("filling"), destinationNames(client), "refused sends created nothing");

            SubscriptionRef queue = SubscriptionRef.queue("filling");
            client.subscribe(queue, 1);
            int drained = 0;
            for (List<Received> got = client.pull(queue, 1, 32, 0); !got.isEmpty(); got = client.pull(queue, 1, 32, 0)) {
                client.ack(queue, got);
                drained += got.size();
            }
            assertEquals(accepted + 1, drained, "consumers drain a full disk");
        } finally {
            broker.close();
            new ProcessBuilder("umount", "-l", dataDir.toString()).inheritIO().start().waitFor();
        }
    }

    private static void leaveUsable(Path mountPoint, long bytes) throws Exception {
        Path filler = mountPoint.resolve("filler");
        long target = Math.max(0, Files.getFileStore(mountPoint).getUsableSpace() - bytes);
        try (RandomAccessFile file = new RandomAccessFile(filler.toFile(), "rw")) {
            byte[] chunk = new byte[64 * 1024];
            for (long at = 0; at < target; at += chunk.length) {
                file.write(chunk, 0, (int) Math.min(chunk.length, target - at));
            }
            file.getFD().sync();
        }
        assertFalse(Files.getFileStore(mountPoint).getUsableSpace() > bytes + 65_536);
    }
}
