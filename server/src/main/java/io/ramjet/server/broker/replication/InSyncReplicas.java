package io.ramjet.server.broker.replication;

import io.ramjet.storage.ReplicationGate;
import io.ramjet.storage.NotReplicatedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's view of its slaves (Kafka's ISR): how far each has flushed the master's log, and
 * which are in sync. A slave is in sync while it keeps catching up: each fetch that asks from at
 * least the master's end at its previous answer counts as caught up, and a slave that has not
 * caught up for {@code maxLag} leaves the set until it does again; one whose replication
 * connection closed leaves it at once ({@link #disconnected}), since a slave that died fetches
 * nothing more and waiting {@code maxLag} for it would stall every SYNC write meanwhile. Under SYNC this is the store's
 * {@link ReplicationGate}: a durable append completes once every in-sync slave has flushed its
 * bytes and the set with the master counts at least {@code minInSyncReplicas}, or fails after
 * {@code syncTimeout}.
 *
 * <p>Every change of the set goes to an {@link InSyncSetCommit} (the controller group in
 * controller mode), one at a time, again until it succeeds. A slave that left the set is still
 * waited for until a set without it is committed: the controller elects only from the committed
 * set, so every slave it may elect holds every write answered under SYNC. For the same reason a
 * slave that joins is waited for at once but counts in the set ({@link #inSync}, what is
 * committed) only once it has flushed every write answered before it joined: catching up with
 * the master's end at its previous answer does not cover the writes answered since with the
 * other slaves, and a slave elected without them would serve without them (a MARK among
 * them, a delivery the new master does not know of, redelivered without JMSRedelivered).
 *
 * <p>It also bounds what the store dispatches ({@link #replicatedOffset}): the highest offset a
 * SYNC write would be answered at now, so a consumer never receives a record that an election
 * could take back (a message delivered by a master that died before its slaves had it came
 * back from the new master as new, without JMSRedelivered, once its producer resent it).
 *
 * <p>Threading: any thread; waiters are completed and commits called outside the lock. Nothing on
 * disk: the set is rebuilt from the slaves' fetches after a restart.
 */
public final class InSyncReplicas implements ReplicationGate {

    private static final Logger LOG = LoggerFactory.getLogger(InSyncReplicas.class);

    private static final class Replica {
        long flushedOffset;
        long endAtLastAnswer = Long.MAX_VALUE;
        long caughtUpNanos;
        /** Waited for by the gate: caught up, and not dropped since. */
        boolean inSync;
        /** The highest offset answered when it joined: it counts in the set once flushed that far. */
        long joinedAt;

        boolean holdsAnswered() {
            return inSync && flushedOffset >= joinedAt;
        }
    }

    private record Waiter(long offset, long deadlineNanos, CompletableFuture<Void> done) {
    }

    private final ReplicationConfig config;
    private final LongSupplier nanoTime;
    private final InSyncSetCommit commit;
    private final Map<Long, Replica> replicas = new ConcurrentHashMap<>();
    private final PriorityQueue<Waiter> waiters = new PriorityQueue<>((a, b) -> Long.compare(a.offset, b.offset));
    /** The highest offset a SYNC write was answered at. Guarded by this. */
    private long answeredOffset;
    /** The slaves of the last committed set; a new master starts alone in sync. Guarded by this. */
    private Set<Long> committed = Set.of();
    /** Whether a commit is in flight. Guarded by this. */
    private boolean committing;
    /** Whether the last commit failed, so that a run of failures is logged once. Guarded by this. */
    private boolean commitFailing;
    /** Below this offset every byte is where a SYNC write needs it; only grows. Written under this. */
    private volatile long replicated;
    /** No slave is waited for and the master alone is enough: every byte written is replicated. Written under this. */
    private volatile boolean unbounded;
    private volatile Runnable onAdvance = () -> { };
    /** The broker is stopping: its slaves' connections close with it, and that commits no set. */
    private volatile boolean stopped;

    public InSyncReplicas(ReplicationConfig config, LongSupplier nanoTime) {
        this(config, nanoTime, InSyncSetCommit.LOCAL);
    }

    public InSyncReplicas(ReplicationConfig config, LongSupplier nanoTime, InSyncSetCommit commit) {
        this.config = config;
        this.nanoTime = nanoTime;
        this.commit = commit;
        this.unbounded = config.minInSyncReplicas() <= 1;
    }

    /**
     * A fetch from slave {@code brokerId}: everything below {@code flushedOffset} is flushed there,
     * and the master's log ends at {@code masterEnd}. Call before answering it, then {@link #answered}.
     */
    public void fetched(long brokerId, long flushedOffset, long masterEnd) {
        List<Waiter> done;
        boolean joined;
        boolean advanced;
        synchronized (this) {
            Replica replica = replicas.computeIfAbsent(brokerId, id -> new Replica());
            boolean held = replica.holdsAnswered();
            replica.flushedOffset = Math.max(replica.flushedOffset, flushedOffset);
            if (flushedOffset >= Math.min(replica.endAtLastAnswer, masterEnd)) {
                replica.caughtUpNanos = nanoTime.getAsLong();
                if (!replica.inSync) {
                    replica.inSync = true;
                    replica.joinedAt = answeredOffset;
                }
            }
            joined = !held && replica.holdsAnswered();
            if (joined) {
                LOG.info("slave {} joins the in-sync set at offset {}", brokerId, replica.flushedOffset);
            }
            done = due();
            advanced = advanceReplicated();
        }
        complete(done);
        if (advanced) {
            onAdvance.run();
        }
        if (joined) {
            commitChange();
        }
    }

    /** The master answered slave {@code brokerId} when its log ended at {@code endOffset}. */
    public synchronized void answered(long brokerId, long endOffset) {
        Replica replica = replicas.get(brokerId);
        if (replica != null) {
            replica.endAtLastAnswer = endOffset;
        }
    }

    /**
     * The replication connection of slave {@code brokerId} closed: it leaves the set now, and the
     * writes wait for it only until a set without it is committed (see the class comment).
     */
    public void disconnected(long brokerId) {
        if (stopped) {
            return;
        }
        synchronized (this) {
            Replica replica = replicas.get(brokerId);
            if (replica == null || !replica.inSync) {
                return;
            }
            replica.inSync = false;
            LOG.warn("slave {} leaves the in-sync set: its connection closed (flushed to {})", brokerId,
                    replica.flushedOffset);
        }
        commitChange();
    }

    /** Drops the slaves that have not caught up for {@code maxLag} and fails the waiters past their time; periodic. */
    public void check() {
        List<Waiter> done;
        List<Waiter> late = new ArrayList<>();
        synchronized (this) {
            long now = nanoTime.getAsLong();
            replicas.forEach((id, replica) -> {
                if (replica.inSync && now - replica.caughtUpNanos > config.maxLag().toNanos()) {
                    replica.inSync = false;
                    LOG.warn("slave {} leaves the in-sync set: not caught up for {} ms (flushed to {})", id,
                            config.maxLag().toMillis(), replica.flushedOffset);
                }
            });
            done = due();
            waiters.removeIf(w -> {
                if (now - w.deadlineNanos > 0) {
                    late.add(w);
                    return true;
                }
                return false;
            });
        }
        complete(done);
        late.forEach(w -> w.done.completeExceptionally(new NotReplicatedException("not replicated to "
                + config.minInSyncReplicas() + " brokers within " + config.syncTimeout().toMillis() + " ms: in sync "
                + inSyncText() + " (it stays stored on the master)")));
        commitChange();
    }

    /**
     * The broker stops: from now on the set is not committed again, so that the slaves, whose
     * connections close with the master's, stay electable in the committed set.
     */
    public void stop() {
        stopped = true;
    }

    /** Commits the set as it stands if it differs from the committed one and no commit is in flight. */
    private void commitChange() {
        if (stopped) {
            return;
        }
        Set<Long> target;
        synchronized (this) {
            target = inSync();
            if (committing || target.equals(committed)) {
                return;
            }
            committing = true;
        }
        commit.commit(target).whenComplete((ignored, failure) -> committed(target, failure));
    }

    private void committed(Set<Long> target, Throwable failure) {
        List<Waiter> done;
        boolean advanced;
        synchronized (this) {
            committing = false;
            if (failure != null) {
                if (!commitFailing) {
                    LOG.warn("in-sync set {} not committed ({}); retrying, and waiting for the slaves of {}", target,
                            failure.toString(), committed);
                }
                commitFailing = true;
                return;
            }
            commitFailing = false;
            committed = Set.copyOf(target);
            done = due();
            advanced = advanceReplicated();
        }
        complete(done);
        if (advanced) {
            onAdvance.run();
        }
        commitChange();
    }

    /** The ids of the slaves in sync now, each holding every write answered, for a controller to commit. */
    public synchronized Set<Long> inSync() {
        Set<Long> ids = new TreeSet<>();
        replicas.forEach((id, replica) -> {
            if (replica.holdsAnswered()) {
                ids.add(id);
            }
        });
        return ids;
    }

    /** Every slave that fetched since the master started, by broker id: how far it has flushed the master's log. */
    public synchronized Map<Long, Long> flushedOffsets() {
        Map<Long, Long> out = new java.util.TreeMap<>();
        replicas.forEach((id, replica) -> out.put(id, replica.flushedOffset));
        return out;
    }

    /** How far slave {@code brokerId} has flushed the master's log, -1 if it never fetched. */
    public synchronized long flushedOffset(long brokerId) {
        Replica replica = replicas.get(brokerId);
        return replica == null ? -1 : replica.flushedOffset;
    }

    @Override
    public CompletableFuture<Void> replicatedTo(long endOffset) {
        if (config.mode() == ReplicationConfig.Mode.ASYNC) {
            return CompletableFuture.completedFuture(null);
        }
        synchronized (this) {
            if (satisfied(endOffset)) {
                answeredOffset = Math.max(answeredOffset, endOffset);
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> done = new CompletableFuture<>();
            waiters.add(new Waiter(endOffset, nanoTime.getAsLong() + config.syncTimeout().toNanos(), done));
            return done;
        }
    }

    @Override
    public synchronized Optional<String> shortfall() {
        if (config.mode() == ReplicationConfig.Mode.ASYNC || heldByEnough() >= 0) {
            return Optional.empty();
        }
        return Optional.of("the in-sync set is below minInSyncReplicas " + config.minInSyncReplicas() + ": in sync "
                + inSyncText());
    }

    /** Who holds every write answered: the master, and the slaves of {@link #inSync}. */
    private String inSyncText() {
        Set<Long> slaves = inSync();
        return slaves.isEmpty() ? "the master alone" : "the master and slaves " + slaves;
    }

    @Override
    public long replicatedOffset() {
        return config.mode() == ReplicationConfig.Mode.ASYNC || unbounded ? Long.MAX_VALUE : replicated;
    }

    @Override
    public void onAdvance(Runnable advanced) {
        onAdvance = advanced;
    }

    /**
     * Raises {@link #replicated} to the highest offset {@link #satisfied} holds for: the lowest
     * flush of the slaves waited for, once they and the master are enough; with none waited for
     * and the master enough, everything ({@link #unbounded}) until one is. True if it moved.
     */
    private boolean advanceReplicated() {
        long held = heldByEnough();
        boolean wasUnbounded = unbounded;
        unbounded = held == Long.MAX_VALUE;
        if (unbounded) {
            return !wasUnbounded;
        }
        if (held <= replicated) {
            return false;
        }
        replicated = held;
        return true;
    }

    private boolean satisfied(long offset) {
        return heldByEnough() >= offset;
    }

    /**
     * How far every slave waited for (in sync, or in the committed set) has flushed, when they and
     * the master are at least {@code minInSyncReplicas}: {@link Long#MAX_VALUE} with none waited
     * for, -1 when they are too few.
     */
    private long heldByEnough() {
        int holding = 1;
        long lowest = Long.MAX_VALUE;
        for (Map.Entry<Long, Replica> entry : replicas.entrySet()) {
            Replica replica = entry.getValue();
            if (replica.inSync || committed.contains(entry.getKey())) {
                lowest = Math.min(lowest, replica.flushedOffset);
                holding++;
            }
        }
        return holding >= config.minInSyncReplicas() ? lowest : -1;
    }

    private List<Waiter> due() {
        List<Waiter> done = new ArrayList<>();
        while (!waiters.isEmpty() && satisfied(waiters.peek().offset)) {
            Waiter answered = waiters.poll();
            answeredOffset = Math.max(answeredOffset, answered.offset);
            done.add(answered);
        }
        return done;
    }

    private static void complete(List<Waiter> done) {
        done.forEach(w -> w.done.complete(null));
    }
}
