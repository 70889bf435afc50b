package io.ramjet.bench.peer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressFullMessagePolicy;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.apache.activemq.artemis.nativo.jlibaio.LibaioContext;

/**
 * ActiveMQ Artemis as a benchmark peer, in a JVM of its own, configured as {@code artemis create}
 * would configure a broker on this machine: ASYNCIO where libaio loads (the JVM started with
 * {@link ArtemisNative#jvmArgs}, as the distribution's launch script starts it), else NIO, with datasync;
 * the journal buffer timeout (and the page sync timeout) measured on the data directory at start
 * the way {@code artemis create} measures it ({@link ArtemisSyncTest}); {@code journal-pool-files}
 * 10; the acceptor on epoll (Artemis's {@code useEpoll=true}; Netty falls back to NIO where epoll
 * is unavailable) with 1 MiB socket buffers; the address settings {@code artemis create} writes
 * for {@code #}. Everything else at Artemis's defaults, {@code persist-delivery-count-before-delivery}
 * among them (false). Departures, each for a reason: security off and one Core acceptor on
 * 127.0.0.1 (Ramjet's peer has no authentication, and no other protocol is used). Its audit
 * loggers are off, as in the distribution's logging configuration.
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
    /** Where the dynamic linker finds libaio.so.1 on Debian, Ubuntu and Red Hat family systems. */
    private static final List<String> LIBRARY_DIRS = List.of("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
            "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib");

    private ArtemisServerMain() {
    }

    /**
     * Artemis's audit loggers, off as the distribution's {@code log4j2.properties} has them: on
     * (SLF4J's simple logger logs INFO by default) they write lines for every message sent,
     * delivered and acknowledged.
     */
    static final String AUDIT_LOGGERS = "org.slf4j.simpleLogger.log.org.apache.activemq.audit";

    public static void main(String[] args) throws Exception {
        // before the first logger is made: the simple logger reads its levels once
        System.setProperty(AUDIT_LOGGERS, "off");
        int port = Integer.parseInt(args[0]);
        Path data = Files.createDirectories(Path.of(args[1]));
        Path journal = Files.createDirectories(data.resolve("journal"));
        boolean aio = LibaioContext.isLoaded();
        JournalType type = aio ? JournalType.ASYNCIO : JournalType.NIO;
        boolean given = args.length > 2 && Long.parseLong(args[2]) > 0;
        long bufferTimeout = given ? Long.parseLong(args[2])
                : ArtemisSyncTest.bufferTimeoutNanos(journal, type, MAX_AIO);
        PeerControl.setting("journal-type", type + (aio ? "" : " (libaio not loaded: " + libaioCause() + ")"));
        PeerControl.setting("journal-buffer-timeout", bufferTimeout + " ns, "
                + (given ? "as given" : "measured by artemis create's sync test"));
        PeerControl.setting("journal-max-io", aio ? MAX_AIO : 1);
        PeerControl.setting("journal-pool-files", POOL_FILES);
        PeerControl.setting("persist-delivery-count-before-delivery", false);
        PeerControl.setting("audit-loggers", System.getProperty(AUDIT_LOGGERS));
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
        config.setSecurityEnabled(false);
        config.addAddressSetting("#", createAddressSettings());
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
     * Why Artemis's native journal binding did not load, as far as the JVM can tell: libaio
     * itself ({@code libaio.so.1}, the runtime package's file, which the binding links) missing
     * from the system's library directories, or the binding missing from {@code java.library.path}
     * or failing to load.
     */
    private static String libaioCause() {
        Path libaio = LIBRARY_DIRS.stream().map(d -> Path.of(d, "libaio.so.1")).filter(Files::exists)
                .findFirst().orElse(null);
        if (libaio == null) {
            return "no libaio.so.1 in " + String.join(", ", LIBRARY_DIRS) + "; bench/setup.sh installs it";
        }
        String binding = "artemis-native-" + System.getProperty("sun.arch.data.model", "64");
        try {
            System.loadLibrary(binding);
            return libaio + " and Artemis's binding load, but LibaioContext did not start";
        } catch (UnsatisfiedLinkError e) {
            return libaio + " is installed; Artemis's binding does not load: " + e.getMessage();
        }
    }

    /**
     * What {@code artemis create} writes into {@code broker.xml} for {@code #}: where it differs
     * from {@link AddressSettings}'s defaults, auto-created queues and addresses are kept once
     * empty ({@code auto-delete-*} false), and dead and expired messages go to DLQ and ExpiryQueue.
     */
    static AddressSettings createAddressSettings() {
        return new AddressSettings()
                .setDeadLetterAddress(SimpleString.of("DLQ"))
                .setExpiryAddress(SimpleString.of("ExpiryQueue"))
                .setRedeliveryDelay(0)
                .setMaxSizeBytes(-1)
                .setMaxSizeMessages(-1)
                .setPageSizeBytes(10 << 20)
                .setMaxReadPageMessages(-1)
                .setMaxReadPageBytes(20 << 20)
                .setMessageCounterHistoryDayLimit(10)
                .setAddressFullMessagePolicy(AddressFullMessagePolicy.PAGE)
                .setAutoCreateQueues(true)
                .setAutoCreateAddresses(true)
                .setAutoDeleteQueues(false)
                .setAutoDeleteAddresses(false);
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
