package io.ramjet.bench.peer;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;

/**
 * ActiveMQ Artemis as a benchmark peer, in a JVM of its own: persistence on disk (NIO journal
 * with datasync, Artemis's durable default where libaio is absent), security off, one TCP
 * acceptor on 127.0.0.1 (NIO). Talks to its parent through {@link PeerControl}: {@code READY <port>}
 * once it serves, stops when stdin closes.
 *
 * <p>Usage: {@code ArtemisServerMain <port> <dataDir> [acceptorParameters]}: parameters such as
 * {@code sslEnabled=true;keyStorePath=...} are added to the acceptor's URL.
 */
public final class ArtemisServerMain {

    private ArtemisServerMain() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path data = Files.createDirectories(Path.of(args[1]));
        ConfigurationImpl config = new ConfigurationImpl();
        config.setName("artemis-peer");
        config.setPersistenceEnabled(true);
        config.setJournalType(JournalType.NIO);
        config.setJournalDatasync(true);
        config.setSecurityEnabled(false);
        config.setJournalDirectory(data.resolve("journal").toString());
        config.setBindingsDirectory(data.resolve("bindings").toString());
        config.setPagingDirectory(data.resolve("paging").toString());
        config.setLargeMessagesDirectory(data.resolve("large").toString());
        // NIO, not epoll: the native transport Artemis brings is built for Netty 4.1, while the
        // classpath shares Netty 4.2 with Ramjet
        config.addAcceptorConfiguration("tcp", "tcp://127.0.0.1:" + port + "?useEpoll=false"
                + (args.length > 2 ? ";" + args[2] : ""));
        EmbeddedActiveMQ server = new EmbeddedActiveMQ();
        server.setConfiguration(config);
        try {
            server.start();
        } catch (Exception e) {
            e.printStackTrace();
            System.exit(1);
        }
        if (!server.getActiveMQServer().isActive()) {
            System.out.println("Artemis did not become active; see its log above");
            System.exit(1);
        }
        PeerControl.ready(port);
        PeerControl.serveUntilStdinCloses();
        server.stop();
    }
}
