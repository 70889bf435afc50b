package io.ramjet.provider.client;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
 * answer in time (a master that is starting or waiting for its slaves), the group recovers.
 * Its sends then take one of two ways, by whether the lost master may have stored them:
 * <ul>
 *   <li><b>certainly not stored</b> (the master could not be reached, or the send was handed
 *       in while the group recovers): <em>moved</em> at once, one after another in the order they
 *       were handed in, to the destination's other groups ({@link BrokerClient#routeAround}),
 *       without their producer id (the other group's table may hold a later message of the
 *       producer, which would hide this one). A destination that lives on no other live group
 *       keeps them waiting for the group's master, as below; so does a send handed in after
 *       another send to its destination that is still in flight or in doubt: moved, it would
 *       overtake that one (its route may lead to the group's next master already), and a
 *       producer's messages to a destination arrive in the order they were sent;</li>
 *   <li><b>in doubt</b> (sent, no answer): once the unanswered sends finished, each is first
 *       <em>parked</em> ({@link BrokerClient#parkedSend}), in the order they were handed in, on
 *       another live group of its destination, which keeps it undelivered until this group says
 *       whether it holds it, and is answered then; the producer of a parked send takes a new
 *       producer id for its later sends to this group, since a later sequence stored here would
 *       answer for the parked one. The first send that cannot be parked (its destination lives
 *       on no other live group, a large message, a group that refused) and those after it wait
 *       while the NameServers are asked for the group's master ({@link MasterSearch}) for
 *       {@code failoverTimeout}, then go to that master ({@link BrokerClient#sendToGroup}) one
 *       after another, each once the one before is answered, in the order they were handed in,
 *       so the group's idempotent producer check stores each once; no master in time: the group
 *       is routed around and they go wherever their routes now lead, where a message the lost
 *       master stored (but did not answer) may be stored a second time.</li>
 * </ul>
 * Closing the connection ends a recovery at once ({@link #close}). Thread-safe; each way runs on
 * one chain of futures at a time.
 */
final class GroupSends {

    private static final Logger LOG = LoggerFactory.getLogger(GroupSends.class);

    /**
     * A send handed in: {@code sequence} orders it among this connection's sends; {@code wire} is
     * the message with the producer id it carries to this group (see {@link #renamed}), kept for
     * its resends and its parking, which must name it as this group may have stored it.
     */
    private record Pending(long sequence, OutgoingMessage message, OutgoingMessage wire, int queueChoice,
                           CompletableFuture<Void> done) {

        String destinationKey() {
            return message.kind() + ":" + message.destination();
        }
    }

    private final BrokerClient brokers;
    private final String group;
    private final long failoverTimeoutMillis;
    /** The sends in doubt, for the group's next master. */
    private final TreeMap<Long, Pending> waiting = new TreeMap<>();
    /** The sends the lost master certainly did not store, for the destination's other groups. */
    private final TreeMap<Long, Pending> moving = new TreeMap<>();
    /** The sends out to the group's master and not yet answered, by sequence. */
    private final TreeMap<Long, Pending> inFlight = new TreeMap<>();
    /** Whether the group lost its master and the recovery has not finished; sends wait meanwhile. */
    private boolean recovering;
    /** Whether the recovery's chain is running (as opposed to waiting for sends in flight to finish). */
    private boolean resending;
    /** Whether the chain that moves sends to other groups is running. */
    private boolean moverRunning;
    /** The destinations routed around the lost master, and those no other group serves, in this recovery. */
    private final Set<String> movedDestinations = new HashSet<>();
    private final Set<String> unmovableDestinations = new HashSet<>();
    /** The search for the group's next master of the recovery under way. */
    private MasterSearch search;
    /** The master address tried last: after a failure, the one to route around. */
    private String failedAddress;
    /** Whether the recovery under way has parked what it could. */
    private boolean parked;
    /**
     * The sequences of the waiting sends the lost master may have stored (sent, no answer): if
     * one fails in the end, its outcome is unknown, whatever the last attempt's failure says.
     */
    private final Set<Long> mayBeStored = new HashSet<>();
    /** Per producer with a parked send, the id its later sends to this group carry instead. */
    private final Map<Long, Long> renamed = new HashMap<>();
    /** What waits for the recovery under way to end, completed in the order it began to wait. */
    private List<CompletableFuture<Void>> settleWaiters = new ArrayList<>();
    /** Whether the connection closed: no recovery starts, and sends and waits fail at once. */
    private boolean closed;

    GroupSends(BrokerClient brokers, String group, long failoverTimeoutMillis) {
        this.brokers = brokers;
        this.group = group;
        this.failoverTimeoutMillis = failoverTimeoutMillis;
    }

    /**
     * Sends now, or, while the group recovers or sends are being moved, moves the send to another
     * group or queues it for the next master.
     */
    CompletableFuture<Void> send(long sequence, OutgoingMessage message, int queueChoice) {
        Pending pending = new Pending(sequence, message, renamed(message), queueChoice, new CompletableFuture<>());
        boolean sendNow;
        boolean startMover = false;
        synchronized (this) {
            // while sends are being moved, a later one joins them: sent now, it could overtake them
            sendNow = !recovering && !moverRunning || closed;
            if (sendNow) {
                inFlight.put(sequence, pending);
            } else {
                startMover = notStored(pending);
            }
        }
        if (sendNow) {
            brokers.send(pending.wire(), queueChoice, 0, this::tried).whenComplete((sent, failure) -> answered(pending, failure));
        } else if (startMover) {
            move();
        }
        return pending.done();
    }

    /**
     * Completes once the group is not recovering: what a transactional send waits for before it
     * goes. Those that wait are released in the order they asked, so their sends keep that order.
     */
    synchronized CompletableFuture<Void> settled() {
        if (closed) {
            return CompletableFuture.failedFuture(closedFailure(ClientException.Outcome.CERTAINLY_NOT_APPLIED));
        }
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
        ClientException cause = failure == null ? null : ClientException.of(failure);
        boolean kept = false;
        boolean startMover = false;
        boolean start;
        synchronized (this) {
            inFlight.remove(pending.sequence());
            // once the connection closed, a failure is the send's answer: nothing is kept or resent
            if (!closed && cause != null && unreachable(cause)) {
                beginRecovery();
                startMover = notStored(pending);
                kept = true;
            } else if (!closed && cause != null && resendable(pending, cause)) {
                waiting.put(pending.sequence(), pending);
                if (!cause.certainlyNotApplied()) {
                    mayBeStored.add(pending.sequence());
                }
                beginRecovery();
                kept = true;
            }
            start = !closed && readyToResend();
        }
        if (cause == null) {
            pending.done().complete(null);
        } else if (!kept) {
            pending.done().completeExceptionally(cause);
        }
        if (startMover) {
            move();
        }
        if (start) {
            recover();
        }
    }

    /**
     * Whether the send failed because the group's master could not be reached, and so certainly
     * was not stored there. A refusal by a master that stopped being one ({@code NOT_MASTER}) is
     * not: its group names its next master soon, and a fenced master keeps the producer's later
     * sends for the refused one's resend.
     */
    private static boolean unreachable(ClientException cause) {
        return cause.reason() == ClientException.Reason.UNREACHABLE && cause.certainlyNotApplied();
    }

    /**
     * Queues a send the lost master certainly did not store: to be moved, or, when its
     * destination was found on no other live group in this recovery, for the group's master.
     * Returns whether the mover is to be started. Called holding the lock.
     */
    private boolean notStored(Pending pending) {
        if (unmovableDestinations.contains(pending.destinationKey()) || behindAnEarlierSend(pending)) {
            waiting.put(pending.sequence(), pending);
            return false;
        }
        moving.put(pending.sequence(), pending);
        if (moverRunning) {
            return false;
        }
        moverRunning = true;
        return true;
    }

    /**
     * Whether a send handed in before this one, to the same destination, is in flight or waits
     * for the group's master: this one may not overtake it. Called holding the lock.
     */
    private boolean behindAnEarlierSend(Pending pending) {
        String key = pending.destinationKey();
        return inFlight.headMap(pending.sequence()).values().stream().anyMatch(p -> p.destinationKey().equals(key))
                || waiting.headMap(pending.sequence()).values().stream().anyMatch(p -> p.destinationKey().equals(key));
    }

    /**
     * Whether the failed send is to go to the group's master again: its master is gone, or no
     * answer came to an idempotent send, whose resend is stored once whether or not the first
     * attempt was.
     */
    private static boolean resendable(Pending pending, ClientException cause) {
        return cause.isMasterGone()
                || cause.reason() == ClientException.Reason.TIMEOUT && pending.message().producerId() != 0;
    }

    private void beginRecovery() {
        if (!recovering && !closed) {
            recovering = true;
            search = new MasterSearch(brokers, group, failoverTimeoutMillis);
            LOG.info("broker group {} lost its master {}; sends it did not take go to their destinations' other "
                    + "groups, those it may have stored wait up to {} ms for its next master", group, failedAddress,
                    failoverTimeoutMillis);
        }
    }

    /** Whether the recovery may start its chain now (and, if so, marks it started). */
    private boolean readyToResend() {
        if (recovering && !resending && inFlight.isEmpty()) {
            resending = true;
            return true;
        }
        return false;
    }

    /**
     * Moves the first send of {@link #moving} to another group of its destination, then the
     * next once it is answered; a send no other master took (its destination lives on this group
     * alone, or the other groups are gone too), or one behind an earlier send to its destination
     * still in flight or in doubt, waits for this group's master instead.
     */
    private void move() {
        Pending next = null;
        String failed;
        boolean routeAround = false;
        boolean resend = false;
        synchronized (this) {
            while (next == null && !moving.isEmpty()) {
                Pending first = moving.pollFirstEntry().getValue();
                if (behindAnEarlierSend(first)) {
                    waiting.put(first.sequence(), first);
                    beginRecovery();
                    resend |= readyToResend();
                } else {
                    next = first;
                }
            }
            failed = failedAddress;
            if (next == null) {
                moverRunning = false;
            } else {
                routeAround = failed != null && movedDestinations.add(next.destinationKey());
            }
        }
        if (resend) {
            recover();
        }
        if (next != null) {
            moveOne(next, routeAround ? failed : null);
        }
    }

    /** Sends one send of {@link #moving} where its route leads, away from {@code failed} when not null; then the next. */
    private void moveOne(Pending next, String failed) {
        if (failed != null) {
            brokers.routeAround(next.message().destination(), next.message().kind(), failed);
        }
        brokers.send(next.message().withoutProducer(), next.queueChoice(), 0, address -> { })
                .whenComplete((sent, failure) -> {
                    boolean start = false;
                    boolean kept = false;
                    ClientException cause = failure == null ? null : ClientException.of(failure);
                    if (cause != null && unreachable(cause)) {
                        synchronized (this) {
                            kept = !closed;
                            if (kept) {
                                unmovableDestinations.add(next.destinationKey());
                                waiting.put(next.sequence(), next);
                                beginRecovery();
                                start = readyToResend();
                            }
                        }
                    }
                    if (cause == null) {
                        next.done().complete(null);
                    } else if (!kept) {
                        next.done().completeExceptionally(cause);
                    }
                    if (start) {
                        recover();
                    }
                    move();
                });
    }

    /**
     * The connection closed: the recovery under way, if any, ends now instead of at
     * {@code failoverTimeout}. The sends it holds fail (those the lost master may have stored with
     * their outcome unknown), what waits for it fails too, and no recovery starts again.
     */
    void close() {
        List<Pending> inDoubt;
        List<Pending> notStored;
        List<CompletableFuture<Void>> released;
        MasterSearch current;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            inDoubt = new ArrayList<>(waiting.values());
            notStored = new ArrayList<>(moving.values());
            waiting.clear();
            moving.clear();
            released = settleWaiters;
            settleWaiters = new ArrayList<>();
            current = search;
        }
        if (current != null) {
            current.cancel();
        }
        ClientException unknown = closedFailure(ClientException.Outcome.OUTCOME_UNKNOWN);
        ClientException notApplied = closedFailure(ClientException.Outcome.CERTAINLY_NOT_APPLIED);
        inDoubt.forEach(pending -> pending.done().completeExceptionally(unknown));
        notStored.forEach(pending -> pending.done().completeExceptionally(notApplied));
        released.forEach(waiter -> waiter.completeExceptionally(notApplied));
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    private ClientException closedFailure(ClientException.Outcome outcome) {
        return new ClientException(ClientException.Reason.FAILED, outcome,
                "the connection closed while broker group " + group + " had no master", null);
    }

    /** The message with the producer id its producer's sends to this group carry now. */
    private synchronized OutgoingMessage renamed(OutgoingMessage message) {
        Long id = message.producerId() == 0 ? null : renamed.get(message.producerId());
        return id == null ? message : message.withProducer(id);
    }

    /**
     * Parks the waiting sends, in order, on other groups; at the first that cannot be parked
     * (or none waiting) goes on with the recovery: ends it when nothing waits, else searches for
     * the group's master.
     */
    private void parkNext() {
        Pending next;
        synchronized (this) {
            next = waiting.isEmpty() ? null : waiting.firstEntry().getValue();
        }
        if (next == null || next.message().producerId() == 0) {
            afterParking(next == null);
            return;
        }
        long producer = next.message().producerId();
        brokers.parkedSend(next.wire(), group, next.queueChoice()).whenComplete((sent, failure) -> {
            if (isClosed()) {
                return;
            }
            if (failure != null) {
                LOG.info("broker group {}: a send it may hold could not be parked elsewhere ({}); it and those after"
                        + " it wait for the group's master", group, ClientException.of(failure).getMessage());
                afterParking(false);
                return;
            }
            synchronized (this) {
                waiting.remove(next.sequence());
                renamed.put(producer, ProducerIds.next());
            }
            next.done().complete(null);
            parkNext();
        });
    }

    private void afterParking(boolean nothingWaits) {
        if (nothingWaits) {
            nextOrFinish();
        } else {
            recover();
        }
    }

    /**
     * Parks what it can first, then asks for the group's master until one is named (then
     * resends) or the deadline passes (then routes around).
     */
    private void recover() {
        MasterSearch current;
        synchronized (this) {
            if (!parked) {
                parked = true;
                current = null;
            } else {
                current = search;
            }
        }
        if (current == null) {
            parkNext();
            return;
        }
        current.next(address -> true).whenComplete((address, failure) -> {
            if (isClosed()) {
                return;
            }
            if (address != null) {
                resendNext();
            } else {
                routeAround();
            }
        });
    }

    /** Sends the first waiting send to the group's master; the next once it is answered; ends the recovery when none waits. */
    private void resendNext() {
        Pending next = nextOrFinish();
        if (next == null) {
            return;
        }
        brokers.sendToGroup(next.wire(), group, next.queueChoice(), this::tried).whenComplete((sent, failure) -> {
            ClientException cause = failure == null ? null : ClientException.of(failure);
            if (cause == null) {
                next.done().complete(null);
                resendNext();
            } else if (resendable(next, cause) && keepForNextMaster(next, cause)) {
                recover();
            } else {
                next.done().completeExceptionally(cause);
                resendNext();
            }
        });
    }

    /** Queues the send for the group's next master, unless the connection closed; returns whether it did. */
    private synchronized boolean keepForNextMaster(Pending pending, ClientException cause) {
        if (closed) {
            return false;
        }
        waiting.put(pending.sequence(), pending);
        if (!cause.certainlyNotApplied()) {
            mayBeStored.add(pending.sequence());
        }
        return true;
    }

    /** The first waiting send, or null having ended the recovery when none waits. */
    private Pending nextOrFinish() {
        List<CompletableFuture<Void>> released;
        boolean open;
        synchronized (this) {
            if (!waiting.isEmpty()) {
                return waiting.pollFirstEntry().getValue();
            }
            open = !closed;
            mayBeStored.clear();
            recovering = false;
            resending = false;
            parked = false;
            movedDestinations.clear();
            unmovableDestinations.clear();
            released = settleWaiters;
            settleWaiters = new ArrayList<>();
        }
        if (open) {
            LOG.info("broker group {}: sends go to its master again", group);
        }
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

    private void routeAroundNext(Set<String> routedAround, String failed) {
        Pending next = nextOrFinish();
        if (next == null) {
            return;
        }
        OutgoingMessage m = next.message();
        if (failed != null && routedAround.add(next.destinationKey())) {
            brokers.routeAround(m.destination(), m.kind(), failed);
        }
        // another group may hold a later message of this producer, which would hide this one
        brokers.send(m.withoutProducer(), next.queueChoice(), 0, address -> { }).whenComplete((sent, failure) -> {
            if (failure == null) {
                next.done().complete(null);
            } else {
                next.done().completeExceptionally(finalFailure(next, ClientException.of(failure), failed));
            }
            routeAroundNext(routedAround, failed);
        });
    }

    /**
     * What a send that failed in the end fails with: the last attempt's failure, unless the lost
     * master may have stored the send, whose outcome is then unknown (not certainly unapplied, as
     * the last attempt's refusal alone would say).
     */
    private ClientException finalFailure(Pending pending, ClientException last, String lostMaster) {
        boolean unknown;
        synchronized (this) {
            unknown = mayBeStored.contains(pending.sequence());
        }
        if (!unknown || !last.certainlyNotApplied()) {
            return last;
        }
        return new ClientException(ClientException.Reason.CONNECTION_LOST, ClientException.Outcome.OUTCOME_UNKNOWN,
                "broker group " + group + " lost its master " + lostMaster + " before it answered this send, which "
                        + "it may have stored; sending it elsewhere failed too: " + last.getMessage(), last);
    }
}
