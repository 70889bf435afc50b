package io.ramjet.bench.peer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;

/**
 * ActiveMQ Artemis as a benchmark peer, in a JVM of its own: persistence on disk (NIO journal
 * with datasync, Artemis's durable default where libaio is absent), security off, one TCP
 * acceptor on 127.0.0.1 (NIO). Prints {@code READY <port>} on stdout once it serves, and stops when
 * stdin closes, so the parent that started it controls its life.
 *
 * <p>Usage: {@code ArtemisServerMain <port> <dataDir>}.
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
        config.addAcceptorConfiguration("tcp", "tcp://127.0.0.1:" + port + "?useEpoll=false");
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
        System.out.println("READY " + port);
        System.out.flush();
        CountDownLatch stdinClosed = new CountDownLatch(1);
        Thread watcher = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the parent writes nothing; end of stream means it wants us gone
                }
            } catch (java.io.IOException ignored) {
                // the parent is gone: stop as well
            }
            stdinClosed.countDown();
        }, "stdin-watcher");
        watcher.setDaemon(true);
        watcher.start();
        stdinClosed.await();
        server.stop();
    }
}
