package io.ramjet.bench.peer;

import java.io.IOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.broker.BrokerStartup;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.namesrv.NamesrvController;
import org.apache.rocketmq.namesrv.NamesrvStartup;

/**
 * Apache RocketMQ as a benchmark peer, in a JVM of its own: a NameServer on the given port and
 * one master broker, both started through RocketMQ's own {@code NamesrvStartup} and
 * {@code BrokerStartup} with generated configuration files. The store lives in the given
 * directory, the flush policy is the third argument ({@code SYNC_FLUSH} or {@code ASYNC_FLUSH}),
 * topics are created on first use and SQL92 property filters are enabled, a pull may transfer up
 * to 256 messages (1 MiB) and they leave by zero copy ({@code transferMsgByHeap=false}). The parent should start
 * this JVM with {@code -Duser.home} and {@code -Drocketmq.home.dir} in a temporary directory:
 * RocketMQ writes its logs under the home directory.
 *
 * <p>With the system property {@value #JOIN_NAME_SERVER} it starts no NameServer: its broker,
 * named by {@value #BROKER_NAME}, registers with that one (another master of a scaled-out peer).
 *
 * <p>Usage: {@code RocketMqServerMain <nameServerPort> <dataDir> <flushDiskType>}.
 */
public final class RocketMqServerMain {

    /** System property: {@code host:port} of another JVM's NameServer for this JVM's broker to join. */
    public static final String JOIN_NAME_SERVER = "ramjet.peer.joinNameServer";
    /** System property: the broker's name when it joins another NameServer. */
    public static final String BROKER_NAME = "ramjet.peer.brokerName";

    /** Messages a pull may transfer, above the consumers' pull batch. */
    private static final int TRANSFER_CAP = 256;
    /** Bytes a pull may transfer: 256 messages of 1 KiB and their headers. */
    private static final int TRANSFER_BYTES = 1 << 20;

    private RocketMqServerMain() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path data = Files.createDirectories(Path.of(args[1]));
        String flush = args.length > 2 ? args[2] : "SYNC_FLUSH";
        String joined = System.getProperty(JOIN_NAME_SERVER);
        NamesrvController namesrv = null;
        if (joined == null) {
            Path namesrvConf = write(data.resolve("namesrv.conf"), "listenPort=" + port + "\n");
            namesrv = NamesrvStartup.main0(new String[] {"-c", namesrvConf.toString()});
            if (namesrv == null) {
                throw new IllegalStateException("RocketMQ NameServer did not start; see its log above");
            }
        }
        String nameServer = joined != null ? joined : "127.0.0.1:" + port;
        int brokerPort = brokerPort();
        Path brokerConf = write(data.resolve("broker.conf"), String.join("\n",
                "brokerClusterName=BenchCluster",
                "brokerName=" + System.getProperty(BROKER_NAME, "bench-broker"),
                "brokerId=0",
                "brokerRole=ASYNC_MASTER",
                "flushDiskType=" + flush,
                "listenPort=" + brokerPort,
                "brokerIP1=127.0.0.1",
                "namesrvAddr=" + nameServer,
                "autoCreateTopicEnable=true",
                "enablePropertyFilter=true",
                "storePathRootDir=" + data.resolve("store"),
                "storePathCommitLog=" + data.resolve("store").resolve("commitlog"),
                "deleteWhen=04",
                "fileReservedTime=48",
                // the default, 200 ms, rejects sends (TIMEOUT_CLEAN_QUEUE) as soon as a busy disk
                // holds the send queue back: on a small shared machine that is all the time
                "waitTimeMillsInSendQueue=10000",
                // a pull may carry what the consumer asks for (RocketMqWorkloads.PULL_BATCH) from
                // memory or disk; the defaults (32 / 8 messages) cap it below that
                "maxTransferCountOnMessageInMemory=" + TRANSFER_CAP,
                "maxTransferCountOnMessageInDisk=" + TRANSFER_CAP,
                "maxTransferBytesOnMessageInMemory=" + TRANSFER_BYTES,
                "maxTransferBytesOnMessageInDisk=" + TRANSFER_BYTES,
                // messages leave through zero-copy file regions, not a copy on the heap
                "transferMsgByHeap=false",
                ""));
        BrokerController broker = BrokerStartup.start(BrokerStartup.createBrokerController(
                new String[] {"-c", brokerConf.toString(), "-n", nameServer}));
        if (namesrv != null) {
            awaitRegistration(namesrv);
        }
        PeerControl.setting("flushDiskType", flush);
        PeerControl.noteNetty();
        PeerControl.ready(port);
        PeerControl.serveUntilStdinCloses();
        broker.shutdown();
        if (namesrv != null) {
            namesrv.shutdown();
        }
        System.exit(0);
    }

    /**
     * Waits until the broker has registered the topic that topic creation goes through, so that
     * the first client after READY can create its topics.
     */
    private static void awaitRegistration(NamesrvController namesrv) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (namesrv.getRouteInfoManager().pickupTopicRouteData(TopicValidator.AUTO_CREATE_TOPIC_KEY_TOPIC) == null) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the RocketMQ broker did not register with its NameServer in 60 s");
            }
            Thread.sleep(20);
        }
    }

    private static Path write(Path file, String text) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(text);
        }
        return file;
    }

    /**
     * A free port p for which p - 2 (RocketMQ's "VIP" channel) and p + 1 (its HA service) are free
     * as well: the broker binds all three.
     */
    private static int brokerPort() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int p = ThreadLocalRandom.current().nextInt(20_000, 60_000);
            if (free(p - 2) && free(p) && free(p + 1)) {
                return p;
            }
        }
        throw new IOException("no free port triple for the RocketMQ broker");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
