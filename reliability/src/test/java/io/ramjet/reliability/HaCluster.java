package io.ramjet.reliability;

import io.ramjet.controller.ClusterSecret;
import io.ramjet.controller.ControllerClient;
import io.ramjet.controller.ControllerGroup;
import io.ramjet.controller.ReplicaInfo;
import io.ramjet.provider.jms.RamjetConnectionFactory;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.function.Executable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The high-availability test cluster, one per test class (a static {@code @RegisterExtension} field):
 * three NameServers each embedding a controller node, and one broker group {@code g1} of three
 * brokers (ids 1, 2, 3) in controller mode, {@code SYNC} with {@code minInSyncReplicas=2} unless
 * the class says otherwise. All child JVMs, ports picked once and kept across restarts, data under
 * one temporary directory removed at the end. When a test fails, every process's log tail is
 * printed. {@link #proxied()}: each broker sits behind its own {@link BrokerProxy}, which it
 * advertises ({@code advertisedPort}) to clients and slaves, so that a test can cut a slave's
 * replication off while its heartbeats to the controllers go on. Driven by one thread at a time.
 * {@link #shared()}: the cluster of the default configuration, started by the first class that
 * uses it and stopped at the end of the test run, each test leaving it whole ({@link #afterEach}).
 */
final class HaCluster implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

    static final String GROUP = "g1";
    static final int BROKERS = 3;
    /** The secret the group's brokers and controllers prove to each other. */
    static final String CLUSTER_SECRET = "the reliability tests' cluster secret";
    /** Small segments: three brokers' files on one disk, and quick to compare. */
    static final int SEGMENT_SIZE = 16 << 20;
    private static final Duration CONTROLLER_CALL_TIMEOUT = Duration.ofSeconds(5);

    private final String name;
    private final Duration brokerTimeout;
    private final Properties brokerProperties;
    private final String urlOptions;
    private final List<NameServerProcess> nameServers = new ArrayList<>();
    private final List<GroupBroker> brokers = new ArrayList<>();
    private final List<BrokerProxy> proxies = new ArrayList<>();
    private boolean proxied;
    private final Properties controllerProperties = new Properties();
    private Path root;
    private ControllerClient controller;
    private boolean shared;
    private boolean started;
    /** Why the shared cluster cannot serve the classes after: it did not start, or a test left it broken. */
    private Throwable broken;

    /** The default configuration's cluster that {@link #shared()} hands out, one per test JVM. */
    private static HaCluster sharedDefault;

    /**
     * @param brokerTimeout    the controller's {@code brokerTimeoutMillis}
     * @param brokerProperties over the defaults of {@link #defaults()}
     * @param urlOptions       {@code key=value&...} after the NameServers in the client URL, or ""
     */
    HaCluster(String name, Duration brokerTimeout, Properties brokerProperties, String urlOptions) {
        this.name = name;
        this.brokerTimeout = brokerTimeout;
        this.brokerProperties = defaults();
        this.brokerProperties.putAll(brokerProperties);
        this.urlOptions = urlOptions;
    }

    /**
     * The cluster of classes that need the default configuration (a broker timeout of 2.5 s,
     * {@link #defaults()}, no URL options, no proxies): started once by the first such class,
     * closed when the test run ends. Tests that share it keep to destinations and client ids of
     * their own; each leaves the group whole again ({@link #afterEach}), its controllers too.
     */
    static synchronized HaCluster shared() {
        if (sharedDefault == null) {
            sharedDefault = new HaCluster("shared", Duration.ofMillis(2_500), new Properties(), "");
            sharedDefault.shared = true;
        }
        return sharedDefault;
    }

    /** Puts each broker behind a proxy of its own, before {@link #start()}. */
    HaCluster proxied() {
        this.proxied = true;
        return this;
    }

    /**
     * The controllers' {@code controller.silentMasterTimeoutMillis}, before {@link #start()}: a
     * long one makes sure that only a lost-master report or a restarted master's registration
     * replaces a master.
     */
    HaCluster silentMasterTimeout(Duration timeout) {
        controllerProperties.setProperty("controller.silentMasterTimeoutMillis", Long.toString(timeout.toMillis()));
        return this;
    }

    /**
     * What every test broker of the group sets: the group, SYNC to two, small segments, quick
     * heartbeats, and patience with a controller group that takes long to elect its leader on a
     * loaded machine (at load 45 it took over the default 30 s, and the brokers exited).
     */
    static Properties defaults() {
        return Brokers.properties(
                "brokerName", GROUP,
                "replicationMode", "SYNC",
                "minInSyncReplicas", "2",
                "replicaMaxLagMs", "4000",
                "replicaSyncTimeoutMs", "5000",
                "segmentSize", Integer.toString(SEGMENT_SIZE),
                "minFreeSpace", "64m",
                "heartbeatIntervalMs", "1000",
                "controllerHeartbeatMs", "500",
                "controllerRegisterPatienceMs", "90000");
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (shared) {
            if (broken != null) {
                throw new IllegalStateException("the shared cluster did not start or was left broken", broken);
            }
            if (started) {
                return;
            }
            // closed as the run ends, after the last class that shares it; a later run in this JVM starts it anew
            context.getRoot().getStore(ExtensionContext.Namespace.create(HaCluster.class))
                    .put(name, (AutoCloseable) this::closeShared);
        }
        try {
            start();
            started = true;
        } catch (Exception e) {
            broken = e;
            throw e;
        }
    }

    /** Starts the NameServers and the three brokers, and waits until one is master with the other two in sync. */
    void start() throws Exception {
        root = Files.createTempDirectory("ramjet-ha-" + name + "-");
        int[] ports = ChildJvm.freePorts(3 + 3 + BROKERS);
        for (int i = 0; i < 3; i++) {
            nameServers.add(new NameServerProcess(name + "-ns" + i, "n" + i, ports[i], ports[3 + i],
                    Files.createDirectories(root.resolve("ns" + i))));
        }
        String peers = nameServers.stream().map(NameServerProcess::peer).collect(Collectors.joining(","));
        String nameServerList = nameServers.stream().map(ns -> "127.0.0.1:" + ns.port()).collect(Collectors.joining(","));
        Properties properties = new Properties();
        properties.putAll(brokerProperties);
        properties.setProperty("controllerAddresses", peers);
        properties.setProperty("clusterSecret", CLUSTER_SECRET);
        properties.setProperty("controllerTimeoutMs", Long.toString(brokerTimeout.toMillis()));
        for (int i = 0; i < BROKERS; i++) {
            long id = i + 1;
            Properties own = new Properties();
            own.putAll(properties);
            own.setProperty("brokerId", Long.toString(id));
            if (proxied) {
                BrokerProxy proxy = new BrokerProxy(name + "-b" + id, ports[6 + i]);
                proxies.add(proxy);
                proxy.start();
                own.setProperty("advertisedPort", Integer.toString(proxy.port()));
            }
            brokers.add(new GroupBroker(name + "-b" + id, id, ports[6 + i], root.resolve("b" + id), own, nameServerList));
        }
        inParallel(nameServers.stream().<Step>map(ns -> () -> ns.start(peers, brokerTimeout, controllerProperties)).toList());
        controller = ControllerClient.connect(ControllerGroup.parse(peers), ClusterSecret.of(CLUSTER_SECRET),
                CONTROLLER_CALL_TIMEOUT);
        // all launched at once, while the controllers elect their leader (the brokers keep trying to
        // register for controllerRegisterPatienceMs): the first registered is master, the others join it
        for (GroupBroker broker : brokers) {
            broker.launch();
        }
        for (GroupBroker broker : brokers) {
            broker.awaitAccepting();
        }
        awaitInfo("all three brokers in sync", ChildJvm.START_TIMEOUT,
                info -> info.hasMaster() && info.inSync().size() == BROKERS);
    }

    /** The client URL: every NameServer, and the class's options. */
    String url() {
        return "ramjet://" + nameServers.stream().map(ns -> "127.0.0.1:" + ns.port()).collect(Collectors.joining(","))
                + (urlOptions.isEmpty() ? "" : "?" + urlOptions);
    }

    RamjetConnectionFactory factory() {
        return new RamjetConnectionFactory(url());
    }

    List<GroupBroker> brokers() {
        return brokers;
    }

    GroupBroker broker(long id) {
        return brokers.get((int) id - 1);
    }

    /** {@code host:port} broker {@code id} announces: its proxy's when {@link #proxied()}. */
    String advertisedAddress(long id) {
        return proxied ? "127.0.0.1:" + proxy(id).port() : broker(id).address();
    }

    /** Cuts slave {@code id}'s replication connections on every broker's proxy ({@link BrokerProxy#cut}). */
    void cut(long id) {
        proxies.forEach(p -> p.cut(id));
    }

    /** Forwards slave {@code id}'s new replication connections again on every proxy. */
    void heal(long id) {
        proxies.forEach(p -> p.heal(id));
    }

    /** The proxy in front of broker {@code id}, when {@link #proxied()}. */
    BrokerProxy proxy(long id) {
        return proxies.get((int) id - 1);
    }

    /** Running, not paused, and its replication not cut. */
    private boolean reachable(GroupBroker broker) {
        return broker.isServing() && proxies.stream().noneMatch(p -> p.isCut(broker.brokerId()));
    }

    List<NameServerProcess> nameServers() {
        return nameServers;
    }

    NameServerProcess nameServer(String nodeId) {
        return nameServers.stream().filter(ns -> ns.nodeId().equals(nodeId)).findFirst().orElseThrow();
    }

    ControllerClient controller() {
        return controller;
    }

    /** What the controller group's leader holds for {@link #GROUP} now, or null if it did not answer. */
    ReplicaInfo info() {
        try {
            return controller.replicaInfo(GROUP).info();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    GroupBroker master() {
        ReplicaInfo info = info();
        if (info == null || !info.hasMaster()) {
            throw new AssertionError("the controller names no master of " + GROUP + ": " + info);
        }
        return broker(info.masterId());
    }

    /** Polls the controller until {@code condition} holds; fails naming {@code what} and the last answer. */
    ReplicaInfo awaitInfo(String what, Duration timeout, Predicate<ReplicaInfo> condition) {
        return await(what).atMost(timeout).pollInSameThread().pollInterval(Duration.ofMillis(50))
                .until(this::info, info -> info != null && condition.test(info));
    }

    /**
     * One failover: {@code killedAtNanos} just before the kill signal, {@code deadAtNanos} once the
     * process was seen gone; a send answered in between was answered by the killed master.
     */
    record Failover(long killedId, long newMasterId, int epoch, long killedAtNanos, long deadAtNanos,
            long electedMillis) {
        /**
         * When the test saw the controller name the new master: a send answered after it was the
         * new master's. One answered after the kill signal may still be the killed master's (it
         * takes tens of ms to die, and a loaded client reads an answer late).
         */
        long electedAtNanos() {
            return killedAtNanos + TimeUnit.MILLISECONDS.toNanos(electedMillis);
        }

        @Override
        public String toString() {
            return killedId + "->" + newMasterId + "@e" + epoch + " in " + electedMillis + "ms";
        }
    }

    /**
     * Kills the master with {@code kill -9} once the controller has every reachable broker (running, not paused, not cut) in sync, and
     * waits until it names another master at a newer epoch (at most {@code bound}); the killed
     * broker stays down.
     */
    Failover killMaster(Duration bound) throws InterruptedException {
        long reachable = brokers.stream().filter(this::reachable).count();
        ReplicaInfo before = awaitInfo("a master with its " + reachable + " reachable brokers in sync",
                ChildJvm.START_TIMEOUT, info -> info.hasMaster() && info.inSync().size() == reachable);
        long killedAt = System.nanoTime();
        broker(before.masterId()).kill();
        long deadAt = System.nanoTime();
        ReplicaInfo after = awaitInfo("a new master after broker " + before.masterId() + " was killed", bound,
                info -> info.hasMaster() && info.masterId() != before.masterId() && info.epoch() > before.epoch());
        long millis = Duration.ofNanos(System.nanoTime() - killedAt).toMillis();
        return new Failover(before.masterId(), after.masterId(), after.epoch(), killedAt, deadAt, millis);
    }

    /** Restarts a killed broker and waits until the controller has it back in the in-sync set. */
    void rejoin(long brokerId) throws IOException {
        broker(brokerId).start();
        awaitInfo("broker " + brokerId + " back in sync", ChildJvm.START_TIMEOUT,
                info -> info.inSync().contains(brokerId) && info.masterId() != brokerId);
    }

    /** SIGTERM to every broker, the slaves first, so each closes its store cleanly. */
    void stopBrokers() throws InterruptedException {
        ReplicaInfo info = info();
        long masterId = info == null ? -1 : info.masterId();
        for (GroupBroker broker : brokers) {
            if (broker.brokerId() != masterId) {
                broker.stop();
            }
        }
        if (masterId > 0) {
            broker(masterId).stop();
        }
    }

    /**
     * Stops every broker cleanly (the slaves first) and returns the checks that each slave's
     * CommitLog ends where the master's does and holds the same bytes; prints the figures as
     * {@code RELIABILITY test.convergence}.
     */
    List<Executable> stopAndCompareLogs(String test) throws IOException, InterruptedException {
        long masterId = master().brokerId();
        stopBrokers();
        GroupBroker master = broker(masterId);
        long masterEnd = CommitLogs.end(master.dataDir(), SEGMENT_SIZE);
        List<Executable> checks = new ArrayList<>();
        StringBuilder figures = new StringBuilder("RELIABILITY " + test + ".convergence: master=" + masterId
                + " masterEnd=" + masterEnd);
        for (GroupBroker slave : brokers) {
            if (slave.brokerId() == masterId) {
                continue;
            }
            long end = CommitLogs.end(slave.dataDir(), SEGMENT_SIZE);
            long difference = CommitLogs.firstDifference(master.dataDir(), slave.dataDir(), Math.min(end, masterEnd),
                    SEGMENT_SIZE);
            figures.append(" slave").append(slave.brokerId()).append("End=").append(end)
                    .append(" firstDifference=").append(difference);
            checks.add(() -> assertEquals(masterEnd, end, "slave " + slave.brokerId() + "'s log end"));
            checks.add(() -> assertEquals(-1, difference, "slave " + slave.brokerId() + " differs from the master at"));
        }
        System.out.println(figures);
        checks.add(() -> assertTrue(masterEnd > 0, "the master's log is empty"));
        return checks;
    }

    /**
     * After each test, the tails of the logs if it failed, and the group whole again for the next
     * test: every killed controller restarted, every cut healed, every paused broker let run, every
     * killed one restarted, all three in sync. A shared cluster that cannot be made whole fails
     * the classes after it at once, rather than each waiting out its timeouts.
     */
    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        printTailsIfFailed(context);
        try {
            restore();
        } catch (Exception | AssertionError e) {
            broken = e;
            throw e;
        }
    }

    private void restore() throws Exception {
        for (NameServerProcess nameServer : nameServers) {
            if (!nameServer.jvm().isAlive()) {
                nameServer.start();
            }
        }
        brokers.forEach(b -> heal(b.brokerId()));
        // all launched before any is awaited: a slave serves only once it joined its master, and
        // after a clean stop of the whole group only the last master may be elected
        List<GroupBroker> launched = new ArrayList<>();
        for (GroupBroker broker : brokers) {
            if (broker.jvm().isAlive() && !broker.isServing()) {
                broker.jvm().resume();
            } else if (!broker.jvm().isAlive()) {
                broker.launch();
                launched.add(broker);
            }
        }
        for (GroupBroker broker : launched) {
            broker.awaitAccepting();
        }
        awaitInfo("all three in sync again after the test", ChildJvm.START_TIMEOUT,
                info -> info.inSync().size() == BROKERS);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        printTailsIfFailed(context);
        if (!shared) {
            close();
        }
    }

    private void closeShared() throws IOException {
        try {
            close();
        } finally {
            nameServers.clear();
            brokers.clear();
            proxies.clear();
            controller = null;
            root = null;
            started = false;
        }
    }

    void close() throws IOException {
        if (controller != null) {
            controller.close();
        }
        brokers.forEach(GroupBroker::close);
        proxies.forEach(BrokerProxy::close);
        nameServers.forEach(NameServerProcess::close);
        if (root != null) {
            TempDirs.delete(root);
        }
    }

    private void printTailsIfFailed(ExtensionContext context) {
        if (context.getExecutionException().isPresent()) {
            List<ChildJvm> all = new ArrayList<>();
            nameServers.forEach(ns -> all.add(ns.jvm()));
            brokers.forEach(b -> all.add(b.jvm()));
            for (ChildJvm jvm : all) {
                System.out.println("---- tail of " + jvm.logFile() + "\n" + jvm.logTail(40) + "\n----");
            }
        }
    }

    private interface Step {
        void run() throws Exception;
    }

    /** Runs the steps on threads of their own (starting JVMs one after another is slow) and rethrows the first failure. */
    private static void inParallel(List<Step> steps) throws Exception {
        List<Thread> threads = new ArrayList<>();
        AtomicReference<Exception> failure = new AtomicReference<>();
        for (Step step : steps) {
            Thread t = new Thread(() -> {
                try {
                    step.run();
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                }
            }, "cluster-start");
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }
}
