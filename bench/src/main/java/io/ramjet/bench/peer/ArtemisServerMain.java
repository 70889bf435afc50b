package io.ramjet.bench.peer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.nativo.jlibaio.LibaioContext;

/**
 * ActiveMQ Artemis as a benchmark peer, in a JVM of its own, configured as {@code artemis create}
 * would configure a broker on this machine: ASYNCIO where libaio loads, else NIO, with datasync;
 * the journal buffer timeout (and the page sync timeout) measured on the data directory at start
 * the way {@code artemis create} measures it ({@link ArtemisSyncTest}); {@code journal-pool-files}
 * 10; the acceptor on epoll (Artemis's {@code useEpoll=true}; Netty falls back to NIO where epoll
 * is unavailable) with 1 MiB socket buffers. Departures, each for a reason: security off, one
 * Core acceptor on 127.0.0.1, and {@code persist-delivery-count-before-delivery} on, because
 * Ramjet makes a delivery durable (its MARK record) before a message leaves the broker.
 * Talks to its parent through {@link PeerControl}: {@code READY <port>} once it serves, stops
 * when stdin closes.
 *
 * <p>Usage: {@code ArtemisServerMain <port> <dataDir> [journalBufferTimeoutNanos [acceptorParameters]]}:
 * a given timeout above 0 replaces the measured one (to compare runs on a disk whose load
 * changes); parameters such as {@code sslEnabled=true;keyStorePath=...} are added to the acceptor's URL.
 * With the system properties of {@link ArtemisReplication} it is the live or the backup broker of
 * a replicated pair; a backup is ready once its initial synchronisation with the live one is done.
 */
public final class ArtemisServerMain {

    /** {@code artemis create}'s journal-pool-files. */
    private static final int POOL_FILES = 10;
    /** Artemis's default journal-max-io for ASYNCIO (NIO always uses 1). */
    private static final int MAX_AIO = 4096;

    private ArtemisServerMain() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path data = Files.createDirectories(Path.of(args[1]));
        Path journal = Files.createDirectories(data.resolve("journal"));
        boolean aio = LibaioContext.isLoaded();
        JournalType type = aio ? JournalType.ASYNCIO : JournalType.NIO;
        boolean given = args.length > 2 && Long.parseLong(args[2]) > 0;
        long bufferTimeout = given ? Long.parseLong(args[2])
                : ArtemisSyncTest.bufferTimeoutNanos(journal, type, MAX_AIO);
        PeerControl.note("journal " + type + (aio ? "" : " (libaio not loaded)") + ", journal-buffer-timeout "
                + bufferTimeout + " ns " + (given ? "as given" : "measured by the sync test"));
        ConfigurationImpl config = new ConfigurationImpl();
        config.setName("artemis-peer");
        config.setPersistenceEnabled(true);
        config.setJournalType(type);
        config.setJournalDatasync(true);
        config.setJournalPoolFiles(POOL_FILES);
        if (aio) {
            config.setJournalBufferTimeout_AIO((int) bufferTimeout);
            config.setJournalMaxIO_AIO(MAX_AIO);
        } else {
            config.setJournalBufferTimeout_NIO((int) bufferTimeout);
            config.setJournalMaxIO_NIO(1);
        }
        config.setPageSyncTimeout((int) bufferTimeout);
        config.setPersistDeliveryCountBeforeDelivery(true);
        config.setSecurityEnabled(false);
        config.setJournalDirectory(journal.toString());
        config.setBindingsDirectory(data.resolve("bindings").toString());
        config.setPagingDirectory(data.resolve("paging").toString());
        config.setLargeMessagesDirectory(data.resolve("large").toString());
        config.addAcceptorConfiguration("tcp", "tcp://127.0.0.1:" + port
                + "?useEpoll=true;tcpSendBufferSize=1048576;tcpReceiveBufferSize=1048576;protocols=CORE"
                + (args.length > 3 ? ";" + args[3] : ""));
        String replication = ArtemisReplication.role();
        if (replication != null) {
            ArtemisReplication.configure(config, replication, port);
        }
        EmbeddedActiveMQ server = new EmbeddedActiveMQ();
        server.setConfiguration(config);
        try {
            server.start();
        } catch (Exception e) {
            e.printStackTrace();
            System.exit(1);
        }
        if ("backup".equals(replication)) {
            awaitReplicaSync(server);
        } else if (!server.getActiveMQServer().isActive()) {
            System.out.println("Artemis did not become active; see its log above");
            System.exit(1);
        }
        PeerControl.noteNetty();
        PeerControl.ready(port);
        PeerControl.serveUntilStdinCloses();
        server.stop();
    }

    /**
     * Waits until a backup holds the live broker's journal (its initial synchronisation done), so
     * that no measurement runs while the pair is still copying; exits if that takes a minute.
     */
    private static void awaitReplicaSync(EmbeddedActiveMQ server) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (!server.getActiveMQServer().isReplicaSync()) {
            if (System.nanoTime() - deadline > 0) {
                System.out.println("the Artemis backup did not synchronise with its live broker; see its log above");
                System.exit(1);
            }
            Thread.sleep(50);
        }
        PeerControl.note("backup in sync with its live broker");
    }
}
