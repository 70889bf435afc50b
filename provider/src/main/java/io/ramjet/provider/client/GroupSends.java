package io.ramjet.provider.client;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's non-transactional sends to one broker group (broker name), and the group's
 * failover. While its master answers, sends go straight through, many in flight. Once one fails
 * because the master is gone ({@link ClientException#isMasterGone()}), or an idempotent send
 * (one with a producer id, which the group's master recognises when it comes again) had no
 * answer in time (a master that is starting or waiting for its slaves), the group recovers:
 * <ol>
 *   <li>later sends wait, and the sends still unanswered are let finish (those that fail too join
 *       the waiting ones);</li>
 *   <li>the NameServers are asked for the group's master ({@link MasterSearch}) for
 *       {@code failoverTimeout};</li>
 *   <li>the waiting sends go to that master one after another, each once the one before is
 *       answered, in the order they were handed in: so each producer's resends keep their order
 *       and come before its later sends to the group (a resend can then be recognised by the
 *       group's idempotent producer check);</li>
 *   <li>no master in time: the group is routed around ({@link BrokerClient#routeAround}) and the
 *       waiting sends go to another group, where a message the lost master stored (but did not
 *       answer) may be stored a second time.</li>
 * </ol>
 * Thread-safe; the recovery runs on one chain of futures at a time.
 */
final class GroupSends {

    private static final Logger LOG = LoggerFactory.getLogger(GroupSends.class);

    /** A send handed in: {@code sequence} orders it among this connection's sends. */
    private record Pending(long sequence, OutgoingMessage message, int queueChoice, CompletableFuture<Void> done) {
    }

    private final BrokerClient brokers;
    private final String group;
    private final long failoverTimeoutMillis;
    private final TreeMap<Long, Pending> waiting = new TreeMap<>();
    private int inFlight;
    /** Whether the group lost its master and the recovery has not finished; sends wait meanwhile. */
    private boolean recovering;
    /** Whether the recovery's chain is running (as opposed to waiting for sends in flight to finish). */
    private boolean resending;
    /** The search for the group's next master of the recovery under way. */
    private MasterSearch search;
    /** The master address tried last: after a failure, the one to route around. */
    private String failedAddress;
    /** What waits for the recovery under way to end, completed in the order it began to wait. */
    private List<CompletableFuture<Void>> settleWaiters = new ArrayList<>();

    GroupSends(BrokerClient brokers, String group, long failoverTimeoutMillis) {
        this.brokers = brokers;
        this.group = group;
        this.failoverTimeoutMillis = failoverTimeoutMillis;
    }

    /** Sends now, or once the recovery under way has sent everything handed in before. */
    CompletableFuture<Void> send(long sequence, OutgoingMessage message, int queueChoice) {
        Pending pending = new Pending(sequence, message, queueChoice, new CompletableFuture<>());
        synchronized (this) {
            if (recovering) {
                waiting.put(sequence, pending);
                return pending.done();
            }
            inFlight++;
        }
        brokers.send(message, queueChoice, 0, this::tried).whenComplete((sent, failure) -> answered(pending, failure));
        return pending.done();
    }

    /**
     * Completes once the group is not recovering: what a transactional send waits for before it
     * goes. Those that wait are released in the order they asked, so their sends keep that order.
     */
    synchronized CompletableFuture<Void> settled() {
        if (!recovering) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> waiter = new CompletableFuture<>();
        settleWaiters.add(waiter);
        return waiter;
    }

    /** A transactional send (never resent) found the master gone: the group recovers all the same. */
    void masterLost(String address) {
        boolean start;
        synchronized (this) {
            failedAddress = address;
            beginRecovery();
            start = readyToResend();
        }
        if (start) {
            recover();
        }
    }

    private synchronized void tried(String address) {
        failedAddress = address;
    }

    private void answered(Pending pending, Throwable failure) {
        boolean start;
        synchronized (this) {
            inFlight--;
            if (failure != null && resendable(pending, failure)) {
                waiting.put(pending.sequence(), pending);
                beginRecovery();
            }
            start = readyToResend();
        }
        if (failure == null) {
            pending.done().complete(null);
        } else if (!resendable(pending, failure)) {
            pending.done().completeExceptionally(ClientException.of(failure));
        }
        if (start) {
            recover();
        }
    }

    /**
     * Whether the failed send is to go to the group's master again: its master is gone, or no
     * answer came to an idempotent send, whose resend is stored once whether or not the first
     * attempt was.
     */
    private static boolean resendable(Pending pending, Throwable failure) {
        ClientException cause = ClientException.of(failure);
        return cause.isMasterGone()
                || cause.reason() == ClientException.Reason.TIMEOUT && pending.message().producerId() != 0;
    }

    private void beginRecovery() {
        if (!recovering) {
            recovering = true;
            search = new MasterSearch(brokers, group, failoverTimeoutMillis);
            LOG.info("broker group {} lost its master {}; waiting up to {} ms for a new one", group, failedAddress,
                    failoverTimeoutMillis);
        }
    }

    /** Whether the recovery may start its chain now (and, if so, marks it started). */
    private boolean readyToResend() {
        if (recovering && !resending && inFlight == 0) {
            resending = true;
            return true;
        }
        return false;
    }

    /** Asks for the group's master until one is named (then resends) or the deadline passes (then routes around). */
    private void recover() {
        MasterSearch current;
        synchronized (this) {
            current = search;
        }
        current.next(address -> true).whenComplete((address, failure) -> {
            if (address != null) {
                resendNext();
            } else {
                routeAround();
            }
        });
    }

    /** Sends the first waiting send; the next once it is answered; ends the recovery when none waits. */
    private void resendNext() {
        Pending next = nextOrFinish();
        if (next == null) {
            return;
        }
        brokers.send(next.message(), next.queueChoice(), 0, this::tried).whenComplete((sent, failure) -> {
            if (failure == null) {
                next.done().complete(null);
                resendNext();
            } else if (resendable(next, failure)) {
                synchronized (this) {
                    waiting.put(next.sequence(), next);
                }
                recover();
            } else {
                next.done().completeExceptionally(ClientException.of(failure));
                resendNext();
            }
        });
    }

    /** The first waiting send, or null having ended the recovery when none waits. */
    private Pending nextOrFinish() {
        List<CompletableFuture<Void>> released;
        synchronized (this) {
            if (!waiting.isEmpty()) {
                return waiting.pollFirstEntry().getValue();
            }
            recovering = false;
            resending = false;
            released = settleWaiters;
            settleWaiters = new ArrayList<>();
        }
        LOG.info("broker group {}: sends go to its master again", group);
        released.forEach(waiter -> waiter.complete(null));
        return null;
    }

    /**
     * No master within the failover timeout: the destinations of the waiting sends are routed
     * around the group, and the sends go, in order, wherever their routes now lead.
     */
    private void routeAround() {
        String failed;
        synchronized (this) {
            failed = failedAddress;
        }
        LOG.warn("broker group {}: no master within {} ms; sending elsewhere (a message {} stored without "
                + "answering may be stored twice)", group, failoverTimeoutMillis, failed);
        routeAroundNext(new HashSet<>(), failed);
    }

    private void routeAroundNext(Set<String> movedDestinations, String failed) {
        Pending next = nextOrFinish();
        if (next == null) {
            return;
        }
        OutgoingMessage m = next.message();
        if (failed != null && movedDestinations.add(m.kind() + ":" + m.destination())) {
            brokers.routeAround(m.destination(), m.kind(), failed);
        }
        // another group may hold a later message of this producer, which would hide this one
        brokers.send(m.withoutProducer(), next.queueChoice(), 0, address -> { }).whenComplete((sent, failure) -> {
            if (failure == null) {
                next.done().complete(null);
            } else {
                next.done().completeExceptionally(ClientException.of(failure));
            }
            routeAroundNext(movedDestinations, failed);
        });
    }
}
