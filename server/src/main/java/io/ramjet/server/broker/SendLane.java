package io.ramjet.server.broker;

import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.protocol.remoting.RequestExecutor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a SEND runs: on its connection's I/O thread when nothing waits on the {@link SendThread},
 * else on that thread behind what waits there. Run on the I/O thread, a send is appended as it is
 * read, and once that thread has processed the reads at hand it puts those sends in their
 * ConsumeQueues and forces the CommitLog for them (group commit by read batch; see
 * {@code MessageStore.forceWaiting}) and writes their answers, without a thread hand-off either
 * way: each hand-off is a thread wake-up on the path of a synchronous send.
 *
 * <p>Order: a request handed to the send thread is counted until it has been processed
 * (appended); while any is, every send is handed off too, so one connection's sends (and its
 * counted commits, which take the same lane) reach the CommitLog in the order they arrived. Sends of different connections may be
 * appended by several I/O threads at once; the store serializes appends, and
 * {@code SendProcessor} makes one producer's resend check and append one step.
 *
 * <p>The I/O thread is never kept waiting long: a send runs there only while the disk guard holds
 * no sends (a held send waits up to the configured block time, on the send thread) and the store
 * says its forces are quick enough for an event loop ({@code MessageStore.forcesQuickly}; the
 * store's {@code DurabilityPipeline} states the rules for event loops). Thread-safe.
 */
final class SendLane implements RequestExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(SendLane.class);

    private final SendThread thread;
    private final BooleanSupplier sendsHeld;
    private final BooleanSupplier forcesQuickly;
    private final Runnable force;
    private final AtomicInteger handedOff = new AtomicInteger();
    /** Per I/O thread: whether its force is already queued behind the reads at hand. */
    private final ThreadLocal<boolean[]> forceQueued = ThreadLocal.withInitial(() -> new boolean[1]);

    /**
     * @param sendsHeld     whether the disk guard would hold a send now (never blocks)
     * @param forcesQuickly whether the store's forces are quick enough for an event loop now
     * @param force         forces the CommitLog for the appends that wait for it, if no force is under way
     */
    SendLane(SendThread thread, BooleanSupplier sendsHeld, BooleanSupplier forcesQuickly, Runnable force) {
        this.thread = thread;
        this.sendsHeld = sendsHeld;
        this.forcesQuickly = forcesQuickly;
        this.force = force;
    }

    /** Runs a SEND here, on the I/O thread, or hands it to the send thread (see the class comment). */
    @Override
    public void execute(RemotingConnection connection, Runnable processing) {
        if (handedOff.get() == 0 && !thread.isShutdown() && !sendsHeld.getAsBoolean()
                && forcesQuickly.getAsBoolean()) {
            processing.run();
            forceAfterReads(connection);
            return;
        }
        handOff(connection, processing);
    }

    /**
     * Runs a request on the send thread behind what waits there, and keeps later sends off the
     * I/O threads until it has been processed.
     *
     * @throws RejectedExecutionException once the send thread is shut down
     */
    void handOff(RemotingConnection connection, Runnable processing) {
        handedOff.incrementAndGet();
        try {
            thread.execute(() -> {
                try {
                    processing.run();
                } finally {
                    handedOff.decrementAndGet();
                }
            });
        } catch (RejectedExecutionException e) {
            handedOff.decrementAndGet();
            throw e;
        }
    }

    /** Queues one force on this I/O thread behind the reads it is processing, if none is queued yet. */
    private void forceAfterReads(RemotingConnection connection) {
        boolean[] queued = forceQueued.get();
        if (queued[0]) {
            return;
        }
        queued[0] = true;
        try {
            connection.afterReads(() -> {
                queued[0] = false;
                forceNow();
            });
        } catch (RejectedExecutionException shuttingDown) {
            queued[0] = false;
            forceNow();
        }
    }

    private void forceNow() {
        try {
            force.run();
        } catch (RuntimeException e) {
            // the waiters of a failed force are failed by it; the I/O thread goes on
            LOG.error("forcing the CommitLog for the sends of an I/O thread failed", e);
        }
    }
}
