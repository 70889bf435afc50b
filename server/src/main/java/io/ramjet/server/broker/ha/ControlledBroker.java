package io.ramjet.server.broker.ha;

import io.ramjet.controller.ControllerClient;
import io.ramjet.controller.ControllerGroup;
import io.ramjet.controller.ControllerReply;
import io.ramjet.controller.ControllerStatus;
import io.ramjet.server.broker.error.NetworkException;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.replication.ControllerMode;
import io.ramjet.server.broker.replication.ReplicationControl;
import io.ramjet.storage.StoreTruncation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker in controller mode (RocketMQ 5's controller mode): its role comes from the
 * controller group. It registers at start and starts as master or as slave of the master the
 * answer names; it heartbeats every {@code controllerHeartbeatMs}, and when an answer names
 * another master, or makes it master in a new epoch, it switches role by closing its
 * {@link Broker} and opening a new one on the same port and data directory: a new master finishes
 * replay as after a crash and takes the epoch at its log end; a new slave handshakes with its
 * master, truncates what that master never had, and fetches. Its {@link ControllerLease} fences
 * it as master, and its in-sync set changes are committed to the controllers before they count.
 * A slave whose master stopped answering its fetches says so in its heartbeats
 * ({@link ControllerClient#masterLost}), so that the controllers replace a dead master as soon as
 * its lease ends.
 *
 * <p>Heartbeats go out every {@code controllerHeartbeatMs} whether or not the one before was
 * answered (up to as many unanswered as fit in the broker timeout): each answer renews the lease
 * from its own heartbeat's send, so on a loaded machine, where answers take a good part of the
 * lease, one slow answer does not delay the next heartbeat and leave the master fenced in between.
 * Answers are acted on in the order their heartbeats were sent; one overtaken by the answer to a
 * later heartbeat is dropped.
 *
 * <p>Threading: a timer sends heartbeats, each waits for its answer on a thread of its own; role
 * switches run on another (so a slave waiting for its master does not stop heartbeating), in-sync
 * set commits on a third.
 */
public final class ControlledBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ControlledBroker.class);
    private static final long REGISTER_RETRY_NANOS = Duration.ofMillis(200).toNanos();
    private static final int LOST_MASTER_BEATS = 5;
    /** The most heartbeats waiting for their answers at once; more would be answered after their lease anyway. */
    private static final int MAX_UNANSWERED = 8;
    /**
     * How long a slave that changes master waits for the new one to answer before it reopens
     * instead: about a new master's own switch, which closes and opens its broker.
     */
    private static final Duration FOLLOW_PATIENCE = Duration.ofSeconds(10);

    private final BrokerConfig config;
    private final String address;
    private final ControllerClient controllers;
    private final ControllerLease lease;
    private final ScheduledExecutorService heartbeats;
    /** Where heartbeats wait for their answers, at most {@link #unanswered} permits' worth at once. */
    private final ExecutorService answers;
    private final Semaphore unanswered;
    private final ExecutorService switches;
    private final ExecutorService commits;
    /** The broker serving now, and its role; null while a switch has none running. Written by the switch thread. */
    private volatile Broker broker;
    private volatile BrokerRole role;
    /** The role the last queued switch takes, so that heartbeats queue it once and an overtaken one is skipped. */
    private volatile BrokerRole pending;
    private volatile long lastOffset;

    /** A reply naming this broker master, to a heartbeat or registration sent at {@code sentAt}. */
    private record Confirmation(BrokerRole role, long sentAt) {
    }

    private volatile Confirmation confirmed;
    /** Guards the acting on answers and the fields below it. */
    private final Object answering = new Object();
    /** When the heartbeat whose answer was acted on last was sent. */
    private long newestAnswered;
    private boolean answeredAny;
    private boolean heartbeatsFailing;
    /** Whether the last answer took more than half the broker timeout (warned once until they are fast again). */
    private boolean answersSlow;
    private volatile boolean closed;

    /**
     * @param config a broker configuration with {@code controllerAddresses}; port 0 takes a free
     *               port now, kept across role switches
     */
    public ControlledBroker(BrokerConfig config) {
        ControllerMode mode = config.controllerMode();
        if (!mode.enabled()) {
            throw new IllegalArgumentException("a controlled broker needs controllerAddresses");
        }
        if (config.clusterIdentity() == null) {
            throw new IllegalArgumentException("a controlled broker needs the cluster secret the controllers hold:"
                    + " set clusterSecret (or nameServerSecret)");
        }
        this.config = config.port() == 0 ? config.withPort(freePort(config.host())) : config;
        // what the controllers hand to the slaves as their master's address: the one clients use too
        this.address = this.config.advertisedHost() + ":" + this.config.remoting().announcedPort(this.config.port());
        // generous: a call slower than the lease only fences the master, while a Ratis request that
        // times out makes its client reset the connection, which can block the caller for seconds
        this.controllers = ControllerClient.connect(ControllerGroup.parse(mode.addresses()),
                config.clusterIdentity(), mode.brokerTimeout().multipliedBy(3), mode.tls());
        this.lease = new ControllerLease(mode.brokerTimeout(), System::nanoTime);
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "ramjet-controller-heartbeat"));
        this.answers = Executors.newCachedThreadPool(r -> daemon(r, "ramjet-controller-heartbeat-answer"));
        this.unanswered = new Semaphore((int) Math.max(1, Math.min(MAX_UNANSWERED,
                mode.brokerTimeout().toNanos() / mode.heartbeatInterval().toNanos())));
        this.switches = Executors.newSingleThreadExecutor(r -> daemon(r, "ramjet-role-switch"));
        this.commits = Executors.newSingleThreadExecutor(r -> daemon(r, "ramjet-in-sync-commit"));
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    private static int freePort(String host) {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + host, e);
        }
    }

    /**
     * Registers with the controllers, starts the broker in the role they give, and heartbeats. A
     * slave whose master does not answer within 30 s returns without a running broker and joins
     * the master the controllers name next.
     *
     * @throws IllegalStateException if no controller answers with a master within
     *                               {@code controllerRegisterPatienceMs}
     * @throws NetworkException      if the broker cannot listen on its port
     */
    public void start() throws NetworkException {
        lastOffset = StoreTruncation.logEnd(config.storeConfig());
        long sentAt = System.nanoTime();
        ControllerReply reply = registerPatiently();
        BrokerRole first = BrokerRole.of(reply.info(), config.brokerId());
        LOG.info("broker {}/{} at {} registered with the controllers: {}", config.brokerName(), config.brokerId(),
                address, first);
        confirm(first, sentAt);
        pending = first;
        // heartbeats from now on: the controllers must not take a long recovery for a dead master
        scheduleHeartbeat(config.controllerMode().heartbeatInterval().toNanos());
        Future<Void> started = switches.submit(() -> {
            startBroker(first);
            return null;
        });
        try {
            started.get();
        } catch (ExecutionException e) {
            if (!first.master() && e.getCause() instanceof IllegalStateException unreachable) {
                // the master named may be dead and not yet replaced: heartbeats will name the next one
                LOG.error("broker {}/{} could not join {}; it retries as the controllers answer", config.brokerName(),
                        config.brokerId(), first, unreachable);
                pending = null;
                return;
            }
            close();
            if (e.getCause() instanceof NetworkException refused) {
                throw refused;
            }
            throw e.getCause() instanceof RuntimeException failed ? failed : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted starting broker " + config.brokerName(), e);
        }
    }

    /**
     * Registers until the controllers answer with a master, or {@code controllerRegisterPatienceMs}
     * passed. They refuse the registration of their group's master while its previous run may
     * still hold its lease (the lease of a master killed and started again): it is sent again.
     */
    private ControllerReply registerPatiently() {
        long deadline = System.nanoTime() + config.controllerMode().registerPatience().toNanos();
        boolean refused = false;
        while (true) {
            try {
                ControllerReply reply = register();
                if (reply.ok() && reply.info().hasMaster()) {
                    return reply;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("the controllers answered broker " + config.brokerName() + "/"
                            + config.brokerId() + "'s registration with " + reply.status() + " and no master");
                }
            } catch (IOException e) {
                if (!refused) {
                    LOG.info("broker {}/{}: registration not taken yet ({}); registering again", config.brokerName(),
                            config.brokerId(), e.getMessage());
                    refused = true;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("broker " + config.brokerName() + "/" + config.brokerId()
                            + " cannot register with the controllers " + config.controllerMode().addresses(), e);
                }
            }
            LockSupport.parkNanos(REGISTER_RETRY_NANOS);
        }
    }

    private ControllerReply register() throws IOException {
        return controllers.register(config.brokerName(), config.brokerId(), address, lastOffset);
    }

    private void scheduleHeartbeat(long delayNanos) {
        try {
            heartbeats.schedule(this::heartbeatAndNext, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closing
        }
    }

    /**
     * Sends a heartbeat every {@code controllerHeartbeatMs}, and {@value #LOST_MASTER_BEATS} times
     * as often while this slave's master is lost, so that it learns at once that the controllers
     * made it master; none while every permitted one still waits for its answer.
     */
    private void heartbeatAndNext() {
        boolean lost = false;
        try {
            lost = masterLost();
            if (unanswered.tryAcquire()) {
                boolean reportLost = lost;
                long sentAt = System.nanoTime();
                try {
                    answers.execute(() -> {
                        try {
                            heartbeat(reportLost, sentAt);
                        } finally {
                            unanswered.release();
                        }
                    });
                } catch (RejectedExecutionException e) {
                    unanswered.release(); // closing
                }
            }
        } finally {
            long interval = config.controllerMode().heartbeatInterval().toNanos();
            scheduleHeartbeat(lost ? interval / LOST_MASTER_BEATS : interval);
        }
    }

    /** One heartbeat, sent at {@code sentAt}, reporting this slave's master lost if {@code lost}; acts on its answer. */
    private void heartbeat(boolean lost, long sentAt) {
        ControllerReply reply;
        try {
            reply = beat(lost);
            if (reply.status() == ControllerStatus.UNKNOWN_GROUP || reply.status() == ControllerStatus.UNKNOWN_BROKER) {
                LOG.warn("broker {}/{}: the controllers do not know it ({}): registering again", config.brokerName(),
                        config.brokerId(), reply.status());
                reply = register();
            }
        } catch (IOException | RuntimeException e) {
            synchronized (answering) {
                if (!heartbeatsFailing && !closed) {
                    LOG.warn("broker {}/{}: heartbeat to the controllers failed ({}); a master refuses writes {} ms"
                            + " after its last answered heartbeat", config.brokerName(), config.brokerId(),
                            e.toString(), config.controllerMode().brokerTimeout().toMillis());
                }
                heartbeatsFailing = true;
            }
            return;
        }
        synchronized (answering) {
            if (heartbeatsFailing) {
                LOG.info("broker {}/{}: the controllers answer again", config.brokerName(), config.brokerId());
                heartbeatsFailing = false;
            }
            long answeredMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sentAt);
            boolean slow = answeredMillis > config.controllerMode().brokerTimeout().toMillis() / 2;
            if (slow && !answersSlow) {
                // a master's lease runs from the send: answers this slow leave little of it
                LOG.warn("broker {}/{}: the controllers answered a heartbeat after {} ms (timeout {} ms)",
                        config.brokerName(), config.brokerId(), answeredMillis,
                        config.controllerMode().brokerTimeout().toMillis());
            } else if (!slow && answersSlow) {
                LOG.info("broker {}/{}: the controllers answer heartbeats within half the timeout again",
                        config.brokerName(), config.brokerId());
            }
            answersSlow = slow;
            if (answeredAny && sentAt - newestAnswered <= 0) {
                return; // a later heartbeat's answer came first and was acted on
            }
            answeredAny = true;
            newestAnswered = sentAt;
            if (reply.ok() && reply.info().hasMaster()) {
                follow(BrokerRole.of(reply.info(), config.brokerId()), sentAt);
            }
        }
    }

    /** Whether this broker runs as a slave whose master stopped answering its fetches. */
    private boolean masterLost() {
        Broker running = broker;
        BrokerRole current = role;
        return running != null && current != null && !current.master() && !running.masterReachable();
    }

    /** A heartbeat, or, from a slave whose master is lost, a report of that. */
    private ControllerReply beat(boolean lost) throws IOException {
        long offset = currentOffset();
        BrokerRole current = role;
        if (lost && current != null) {
            return controllers.masterLost(config.brokerName(), config.brokerId(), offset, current.epoch());
        }
        return controllers.heartbeat(config.brokerName(), config.brokerId(), offset);
    }

    /** Renews the lease of a master the controllers confirm; queues a switch to any other role. */
    private void follow(BrokerRole decided, long sentAt) {
        confirm(decided, sentAt);
        BrokerRole current = role;
        if (decided.equals(current)) {
            if (decided.master()) {
                lease.renew(sentAt);
            }
            pending = null;
            return;
        }
        if (current != null && current.master()) {
            lease.revoke();
        }
        if (!decided.equals(pending)) {
            pending = decided;
            LOG.info("broker {}/{}: the controllers say {} (it is {}): switching", config.brokerName(),
                    config.brokerId(), decided, current == null ? "not running" : current);
            try {
                switches.execute(() -> switchTo(decided));
            } catch (RejectedExecutionException e) {
                // closing
            }
        }
    }

    /**
     * Moves to {@code target}'s role: a slave that only changes master follows the new one
     * without closing, when nothing of its log must be cut ({@link Broker#followMaster}); else
     * closes the running broker and starts one in that role. On failure, a later heartbeat retries.
     */
    private void switchTo(BrokerRole target) {
        if (closed || target.equals(role) || !target.equals(pending)) {
            return;
        }
        long began = System.nanoTime();
        lease.revoke();
        if (followWithoutReopening(target)) {
            role = target;
            LOG.info("broker {}/{} switched to {} in {} ms without reopening", config.brokerName(), config.brokerId(),
                    target, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
            return;
        }
        Broker old = broker;
        broker = null;
        role = null;
        if (old != null) {
            old.close();
        }
        try {
            startBroker(target);
        } catch (NetworkException | RuntimeException e) {
            LOG.error("broker {}/{} could not start as {}; the next heartbeat tries again", config.brokerName(),
                    config.brokerId(), target, e);
            pending = null;
            return;
        }
        LOG.info("broker {}/{} switched to {} in {} ms", config.brokerName(), config.brokerId(), target,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
    }

    private boolean followWithoutReopening(BrokerRole target) {
        Broker running = broker;
        BrokerRole current = role;
        return running != null && current != null && !current.master() && !target.master()
                && running.followMaster(target.masterAddress(), FOLLOW_PATIENCE);
    }

    /** Remembers when the controllers last named this broker master, for a master that starts after. */
    private void confirm(BrokerRole decided, long sentAt) {
        if (decided.master()) {
            confirmed = new Confirmation(decided, sentAt);
        }
    }

    /**
     * Starts the broker in {@code target}'s role. A master holds the lease the answer that named it
     * gave before it opens its port, so that it serves its first requests, and once it runs, the
     * lease of any later answer that came while it started.
     */
    private void startBroker(BrokerRole target) throws NetworkException {
        BrokerConfig brokerConfig = config.toBuilder().controllerMode(ControllerMode.OFF)
                .replication(target.applyTo(config.replication())).build();
        Broker next = new Broker(brokerConfig, brokerConfig.storeConfig(),
                new ReplicationControl(lease, slaves -> commitInSync(target.epoch(), slaves)));
        renewConfirmed(target);
        try {
            next.start();
        } catch (NetworkException | RuntimeException e) {
            lease.revoke();
            throw e;
        }
        broker = next;
        role = target;
        renewConfirmed(target);
    }

    /** Renews the lease from the last answer naming this broker master, if it named {@code target}. */
    private void renewConfirmed(BrokerRole target) {
        Confirmation last = confirmed;
        if (target.master() && last != null && last.role().equals(target)) {
            lease.renew(last.sentAt());
        }
    }

    /** The master of {@code epoch} commits its in-sync set (itself included) to the controllers. */
    private CompletableFuture<Void> commitInSync(int epoch, Set<Long> slaves) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Set<Long> inSync = new TreeSet<>(slaves);
        inSync.add(config.brokerId());
        try {
            commits.execute(() -> {
                try {
                    ControllerReply reply = controllers.alterInSyncSet(config.brokerName(), config.brokerId(), epoch,
                            inSync);
                    if (reply.ok()) {
                        done.complete(null);
                    } else {
                        done.completeExceptionally(new IOException("the controllers refused in-sync set " + inSync
                                + " of epoch " + epoch + ": " + reply.status()));
                    }
                } catch (IOException | RuntimeException e) {
                    done.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            done.completeExceptionally(e);
        }
        return done;
    }

    private long currentOffset() {
        Broker running = broker;
        if (running != null) {
            try {
                lastOffset = running.store().maxPhysicalOffset();
            } catch (RuntimeException e) {
                // closed by a switch meanwhile: the last offset read stands
            }
        }
        return lastOffset;
    }

    /** The broker serving now, or null during a role switch. */
    public Broker broker() {
        return broker;
    }

    /** The role the running broker has, or null during a role switch. */
    public BrokerRole role() {
        return role;
    }

    /** Whether this broker, as master, may accept writes now. */
    public boolean leaseHeld() {
        return lease.held();
    }

    /** {@code host:port} the broker serves on in every role. */
    public String address() {
        return address;
    }

    public BrokerConfig config() {
        return config;
    }

    /** Stops heartbeating, then closes the running broker cleanly and the controller client. */
    @Override
    public void close() {
        closed = true;
        heartbeats.shutdownNow();
        answers.shutdownNow();
        switches.shutdownNow();
        try {
            heartbeats.awaitTermination(10, TimeUnit.SECONDS);
            answers.awaitTermination(10, TimeUnit.SECONDS);
            switches.awaitTermination(40, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        lease.revoke();
        Broker running = broker;
        broker = null;
        if (running != null) {
            running.close();
        }
        commits.shutdownNow();
        try {
            controllers.close();
        } catch (IOException e) {
            LOG.warn("closing the controller client of broker {}/{} failed", config.brokerName(), config.brokerId(), e);
        }
    }
}
