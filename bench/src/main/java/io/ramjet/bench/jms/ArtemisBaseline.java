package io.ramjet.bench.jms;

import io.ramjet.bench.peer.ArtemisServerMain;
import io.ramjet.bench.peer.PeerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * Artemis's figures for the JMS workloads, measured against a peer in its own JVM. The Ramjet
 * column joins this table when the JMS client and broker exist (issues 3 and 4); until then this
 * is the baseline those rows will be divided by.
 *
 * <p>Arguments: {@code [count] [size] [heap]}, defaults 20000, 1024, 1g.
 */
public final class ArtemisBaseline {

    private ArtemisBaseline() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
        String heap = args.length > 2 ? args[2] : "1g";
        Path data = Files.createTempDirectory("artemis-peer");
        try (PeerProcess artemis = PeerProcess.start(ArtemisServerMain.class, heap, data);
             ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory("tcp://127.0.0.1:" + artemis.port() + "?useEpoll=false")) {
            factory.setBlockOnDurableSend(true);
            System.out.printf(Locale.ROOT, "%-44s %14s%n", "workload (" + count + " x " + size + " B)", "Artemis msg/s");
            row("persistent send, 1 producer", JmsWorkloads.send(factory, "p", count, size, JmsWorkloads.mode(true), 0));
            row("persistent drain, 1 consumer", JmsWorkloads.drain(factory, "p", count));
            row("non-persistent send, 1 producer", JmsWorkloads.send(factory, "n", count, size, JmsWorkloads.mode(false), 0));
            row("non-persistent drain, 1 consumer", JmsWorkloads.drain(factory, "n", count));
            for (int every : new int[] {1, 10, 100}) {
                int n = every == 1 ? Math.min(count, 5_000) : count;
                row("transacted send, commit every " + every, JmsWorkloads.send(factory, "t" + every, n, size, JmsWorkloads.mode(true), every));
            }
            System.out.printf(Locale.ROOT, "peer RSS after the run: %d MiB%n", artemis.residentBytes() >> 20);
        } finally {
            try (Stream<Path> files = Files.walk(data)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void row(String name, double rate) {
        System.out.printf(Locale.ROOT, "%-44s %14.0f%n", name, rate);
    }
}
