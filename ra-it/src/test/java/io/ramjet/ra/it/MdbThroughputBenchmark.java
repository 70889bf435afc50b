package io.ramjet.ra.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.bench.peer.ArtemisServerMain;
import io.ramjet.bench.peer.PeerClassPath;
import io.ramjet.bench.peer.PeerProcess;
import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Messages per second through a queue MDB that takes each message in an XA
 * transaction and sends it on in the same one, on Ramjet's adapter ({@code OrdersBean}) and on
 * Artemis's {@code artemis-jakarta-ra} ({@code ArtemisOrdersBean}, same shape: {@code maxSession}
 * 3, pooled XA factory of at most 8), both adapters deployed in one server process, in Payara Micro
 * and then in WildFly (one server at a time), each adapter beside its broker in a process of its
 * own with the same JVM flags (Ramjet's standalone server; Artemis configured as bench/ configures
 * it). Each round fills the input queue with {@code count} text messages of {@code size}
 * characters in one committed transaction and times from that commit to the arrival of the last
 * forwarded message; warm-up rounds first, then the adapters take turns; medians and their ratio
 * are printed per server. Every round also checks that each message arrived once.
 *
 * <p>Not part of {@code mvn verify} (surefire does not pick up {@code *Benchmark}); run with
 * {@code mvn -B -ntp -pl ra-it -am verify -Dtest=MdbThroughputBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false [-Dra.bench.count=500 -Dra.bench.size=256
 * -Dra.bench.rounds=3]} (one server alone: {@code -Dtest='MdbThroughputBenchmark#inPayara'} or
 * {@code #inWildFly}); the figures land in
 * {@code ra-it/target/surefire-reports/io.ramjet.ra.it.MdbThroughputBenchmark-output.txt}.
 */
class MdbThroughputBenchmark {

    private static final int COUNT = Integer.getInteger("ra.bench.count", 500);
    private static final int SIZE = Integer.getInteger("ra.bench.size", 256);
    private static final int ROUNDS = Integer.getInteger("ra.bench.rounds", 3);
    private static final Duration ARRIVAL = Duration.ofSeconds(120);
    private static final Duration QUIET = Duration.ofSeconds(2);
    /** The JVM flags ra-it's Ramjet server process runs with, given to the Artemis process too. */
    private static final List<String> BROKER_JVM = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    @TempDir
    static Path work;

    static RamjetServer ramjet;
    static PeerProcess artemis;
    /** The server the rounds run in now, for a failure's log tail. */
    static AppServer server;
    /** Each server's median ratio, printed together at the end. */
    static final List<String> RATIOS = new ArrayList<>();

    @BeforeAll
    static void start() throws IOException {
        Properties broker = new Properties();
        broker.setProperty("segmentSize", "64m");
        ramjet = new RamjetServer(Files.createDirectories(work.resolve("ramjet-data")),
                LoggedProcess.logDir().resolve("bench-ramjet-server.log"), broker);
        ramjet.start();
        artemis = PeerProcess.start(ArtemisServerMain.class, "256m", PeerClassPath.distribution(), BROKER_JVM,
                Files.createDirectories(work.resolve("artemis-data")));
    }

    @AfterAll
    static void stop() throws Exception {
        System.out.printf("RA-BENCH Ramjet/Artemis median ratio by server: %s%n", String.join("; ", RATIOS));
        if (server != null) {
            server.close();
        }
        if (artemis != null) {
            artemis.close();
        }
        if (ramjet != null) {
            ramjet.close();
        }
    }

    @Test
    void inPayara() throws Exception {
        server = PayaraMicro.start(PayaraMicro.deployDir(), Files.createDirectories(work.resolve("payara")),
                LoggedProcess.logDir().resolve("bench-payara-micro.log"), ramjet.url(), "/ra-it-app/attempts",
                List.of("create-resource-adapter-config --property ConnectionParameters=host\\=127.0.0.1;port\\="
                        + artemis.port() + " artemis-ra"),
                List.of("artemis-ra.rar", "ra-it-artemis.war"));
        try {
            bothAdapters();
        } finally {
            closeServer();
        }
    }

    /**
     * Artemis's rar is configured as an administrator configures any rar in WildFly (its
     * resource-adapters subsystem, with the pooled factory of at most 8); the war's jboss-ejb3.xml
     * binds its bean to it and to that factory, since WildFly binds MDBs to its default adapter
     * (Ramjet's in ra-it) and makes the war's definition-annotation factory with the rar's
     * defaults instead of the administrator's settings.
     */
    @Test
    void inWildFly() throws Exception {
        Path deployDir = PayaraMicro.deployDir();
        String ra = "/subsystem=resource-adapters/resource-adapter=artemis-ra";
        server = WildFly.start(deployDir, Files.createDirectories(work.resolve("wildfly")),
                LoggedProcess.logDir().resolve("bench-wildfly.log"), ramjet.url(), "/ra-it-app/attempts",
                List.of("deploy " + deployDir.resolve("artemis-ra.rar"),
                        "batch",
                        ra + ":add(archive=artemis-ra.rar, transaction-support=XATransaction)",
                        ra + "/config-properties=ConnectionParameters:add(value=\"host=127.0.0.1;port="
                                + artemis.port() + "\")",
                        ra + "/connection-definitions=cf:add(class-name="
                                + "org.apache.activemq.artemis.ra.ActiveMQRAManagedConnectionFactory,"
                                + " jndi-name=java:/jms/artemis/cf, min-pool-size=0, max-pool-size=8)",
                        "run-batch"),
                List.of("ra-it-artemis.war"));
        try {
            bothAdapters();
        } finally {
            closeServer();
        }
    }

    private static void closeServer() throws Exception {
        AppServer closing = server;
        server = null;
        closing.close();
    }

    private void bothAdapters() throws Exception {
        Side ramjetSide = new Side("Ramjet ramjet-ra", new RamjetConnectionFactory(ramjet.url()), "it.orders");
        Side artemisSide = new Side("Artemis artemis-jakarta-ra",
                new ActiveMQConnectionFactory("tcp://127.0.0.1:" + artemis.port()), "bench.orders");
        ramjetSide.round("warm");
        artemisSide.round("warm");
        List<Double> ramjetRates = new ArrayList<>();
        List<Double> artemisRates = new ArrayList<>();
        for (int r = 0; r < ROUNDS; r++) {
            ramjetRates.add(ramjetSide.round("r" + r));
            artemisRates.add(artemisSide.round("r" + r));
        }
        double ramjetMedian = median(ramjetRates);
        double artemisMedian = median(artemisRates);
        System.out.printf("RA-BENCH %s, MDB maxSession 3, XA consume + send on, %d messages of %d chars,"
                        + " median of %d rounds after a warm-up: %s %.0f msg/s %s; %s %.0f msg/s %s;"
                        + " Ramjet/Artemis %.2f%n", server.name(), COUNT, SIZE, ROUNDS,
                ramjetSide.name, ramjetMedian, rounded(ramjetRates), artemisSide.name, artemisMedian,
                rounded(artemisRates), ramjetMedian / artemisMedian);
        RATIOS.add(String.format("%s %.2f", server.name(), ramjetMedian / artemisMedian));
    }

    private static double median(List<Double> rates) {
        List<Double> sorted = rates.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static List<Long> rounded(List<Double> rates) {
        return rates.stream().map(Math::round).toList();
    }

    /** One adapter's bean as the benchmark drives it: through its broker's own JMS client. */
    private record Side(String name, ConnectionFactory factory, String queue) {

        /** Fills the queue, commits, and returns messages per second until the last one was sent on. */
        double round(String label) throws JMSException {
            String padding = "x".repeat(SIZE);
            Set<String> expected = new HashSet<>();
            try (Connection drainConnection = factory.createConnection();
                 Connection sendConnection = factory.createConnection()) {
                Session drainSession = drainConnection.createSession(Session.AUTO_ACKNOWLEDGE);
                MessageConsumer done = drainSession.createConsumer(drainSession.createQueue(queue + ".done"));
                drainConnection.start();
                Session sendSession = sendConnection.createSession(Session.SESSION_TRANSACTED);
                MessageProducer producer = sendSession.createProducer(sendSession.createQueue(queue));
                for (int i = 0; i < COUNT; i++) {
                    String id = label + "-" + i + "-";
                    expected.add(id);
                    producer.send(sendSession.createTextMessage(id + padding.substring(id.length())));
                }
                long start = System.nanoTime();
                sendSession.commit();
                Set<String> arrived = new HashSet<>();
                List<String> duplicates = new ArrayList<>();
                long deadline = start + ARRIVAL.toNanos();
                while (arrived.size() < COUNT && System.nanoTime() < deadline) {
                    collect(done.receive(1_000), arrived, duplicates);
                }
                long nanos = System.nanoTime() - start;
                assertEquals(expected, arrived, () -> name + " " + label + ": " + arrived.size() + " of " + COUNT
                        + " arrived\n" + server.logTail());
                Message extra;
                while ((extra = done.receive(QUIET.toMillis())) != null) {
                    collect(extra, arrived, duplicates);
                }
                assertTrue(duplicates.isEmpty(), () -> name + " " + label + ": arrived twice: " + duplicates);
                double rate = COUNT * 1e9 / nanos;
                System.out.printf("RA-BENCH %s %s %s: %d messages in %d ms, %.0f msg/s%n", server.name(), name, label, COUNT,
                        nanos / 1_000_000, rate);
                return rate;
            }
        }

        private static void collect(Message m, Set<String> arrived, List<String> duplicates) throws JMSException {
            if (m == null) {
                return;
            }
            String text = ((TextMessage) m).getText();
            String id = text.substring(0, text.lastIndexOf('-') + 1);
            if (!arrived.add(id)) {
                duplicates.add(id);
            }
        }
    }
}
