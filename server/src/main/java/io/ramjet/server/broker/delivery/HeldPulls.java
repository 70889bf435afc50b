package io.ramjet.server.broker.delivery;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The pulls held per destination (storage name) and subscription, oldest first. Whoever makes messages of a
 * destination offerable calls a wake, which runs one pass over the destination's held pulls on
 * the executor (a wake during a pass runs another pass after it, so a burst of wakes costs one or
 * two passes): the dispatcher, whose new entry every subscription of the destination may take,
 * wakes them all ({@link #wake(String)}); a release, an acknowledgement freeing a group or a
 * detached consumer makes messages offerable to one subscription only, and wakes only its pulls
 * ({@link #wake(String, Object)}), so closing one of a topic's many subscribers does not have
 * every other subscription look for messages it cannot have. A pass
 * serves the pulls of each subscription in turn: alone, a pull takes what it may at once; with
 * other consumers of its subscription waiting, each consumer takes one message per round,
 * oldest consumer first, until the messages or their room run out, so ready consumers of one
 * subscription share its messages in turn (as Artemis and OpenMQ hand them out). One consumer's
 * pulls (it may have several out) take its messages one after the other, in the order they
 * were registered, so a later pull never takes a message before an earlier one still open;
 * the broker registers a connection's pulls in the order they arrived. A pull whose hold ends
 * is answered empty by the timer. Nothing polls. Thread-safe.
 */
public final class HeldPulls {

    /** Claims messages for a held pull's consumer. */
    public interface Fetch {
        /**
         * Up to {@code max} more messages, their records together at most {@code maxBytes} (at
         * least one if any); empty when none is offerable; null when the consumer is gone and
         * the pull is to be answered now.
         */
        Fetched claim(int max, long maxBytes);
    }

    /**
     * One destination's held pulls and its pass state, guarded by itself: whether a pass runs, and
     * what the next pass serves (every subscription, or those in {@code due}; none: no pass is due).
     */
    private static final class Waiting {
        /** Per subscription, its held pulls oldest first; a subscription left with none is removed. */
        final Map<Object, LinkedHashSet<HeldPull>> pulls = new LinkedHashMap<>();
        boolean passing;
        boolean allDue;
        final Set<Object> due = new HashSet<>();

        boolean anyDue() {
            return allDue || !due.isEmpty();
        }

        /** What the next pass serves (null: every subscription); nothing is due after. */
        Set<Object> takeDue() {
            Set<Object> only = allDue ? null : Set.copyOf(due);
            allDue = false;
            due.clear();
            return only;
        }
    }

    private final Map<String, Waiting> byDestination = new ConcurrentHashMap<>();
    private final Executor executor;
    private final ScheduledExecutorService timer;

    public HeldPulls(Executor executor, ScheduledExecutorService timer) {
        this.executor = executor;
        this.timer = timer;
    }

    /**
     * Answers at once when {@code fetch} finds messages (and no other pull of the subscription
     * waits for them), else holds the pull up to {@code holdMillis}.
     *
     * @param subscription what the pull consumes; pulls of one subscription take turns
     * @param consumer     whose pull it is: {@link #consumerGone} answers it at once
     * @param max          the most messages it takes
     * @param fetch        claims messages for the pull's consumer
     * @return what was claimed, once the pull is answered; empty for nothing
     */
    public CompletableFuture<List<FetchedMessage>> pull(String destination, Object subscription, long consumer,
                                                        int max, long holdMillis, Fetch fetch) {
        HeldPull held = new HeldPull(subscription, consumer, max, fetch);
        List<HeldPull> before = new ArrayList<>();
        // registered before the first attempt, so a message dispatched in between wakes it
        byDestination.compute(destination, (d, waiting) -> {
            Waiting w = waiting == null ? new Waiting() : waiting;
            synchronized (w) {
                LinkedHashSet<HeldPull> ofSubscription = w.pulls.computeIfAbsent(subscription, s -> new LinkedHashSet<>());
                before.addAll(ofSubscription);
                ofSubscription.add(held);
            }
            return w;
        });
        // outside the destination's lock (a pull's lock is taken before it): only those that may still take count
        boolean othersWait = false;
        for (HeldPull p : before) {
            othersWait |= p.hasRoom();
        }
        held.response().whenComplete((fetched, failure) -> forget(destination, held));
        if (holdMillis == 0 || !othersWait) {
            held.claim(max);
            held.answerIfAny();
        }
        if (holdMillis == 0) {
            held.answer();
            return held.response();
        }
        if (othersWait) {
            wake(destination, subscription);
        }
        ScheduledFuture<?> end = timer.schedule(held::answer, holdMillis, TimeUnit.MILLISECONDS);
        held.response().whenComplete((fetched, failure) -> end.cancel(false));
        return held.response();
    }

    /**
     * Removes an answered pull; a destination left with none and no pass running is dropped, so
     * destinations that come and go (temporary queues) leave nothing behind.
     */
    private void forget(String destination, HeldPull held) {
        byDestination.computeIfPresent(destination, (d, w) -> {
            synchronized (w) {
                LinkedHashSet<HeldPull> ofSubscription = w.pulls.get(held.subscription());
                if (ofSubscription != null && ofSubscription.remove(held) && ofSubscription.isEmpty()) {
                    w.pulls.remove(held.subscription());
                }
                return w.pulls.isEmpty() && !w.passing ? null : w;
            }
        });
    }

    /** Serves the held pulls of a destination: any of its subscriptions may have messages to offer. */
    public void wake(String destination) {
        wake(destination, null);
    }

    /**
     * Serves the held pulls of one subscription of a destination: it may have messages to offer
     * (null: any subscription may).
     *
     * @param subscription as its pulls name it in {@link #pull}
     */
    public void wake(String destination, Object subscription) {
        Waiting waiting = byDestination.get(destination);
        if (waiting == null) {
            return;
        }
        synchronized (waiting) {
            if (waiting.pulls.isEmpty()) {
                return;
            }
            if (subscription == null) {
                waiting.allDue = true;
            } else {
                waiting.due.add(subscription);
            }
            if (waiting.passing) {
                return;
            }
            waiting.passing = true;
        }
        try {
            executor.execute(() -> passes(destination, waiting));
        } catch (RejectedExecutionException shuttingDown) {
            synchronized (waiting) {
                waiting.passing = false;
                waiting.takeDue();
            }
        }
    }

    /**
     * The consumer closed or was lost: its held pulls are answered now with what they gathered,
     * without waiting for a pass behind other pulls of the destination.
     */
    public void consumerGone(String destination, long consumer) {
        Waiting waiting = byDestination.get(destination);
        if (waiting == null) {
            return;
        }
        List<HeldPull> gone = new ArrayList<>(1);
        synchronized (waiting) {
            for (LinkedHashSet<HeldPull> ofSubscription : waiting.pulls.values()) {
                for (HeldPull p : ofSubscription) {
                    if (p.consumer() == consumer) {
                        gone.add(p);
                    }
                }
            }
        }
        gone.forEach(HeldPull::answer);
    }

    private void passes(String destination, Waiting waiting) {
        while (true) {
            Set<Object> only;
            synchronized (waiting) {
                if (!waiting.anyDue()) {
                    waiting.passing = false;
                    break;
                }
                only = waiting.takeDue();
            }
            pass(waiting, only);
        }
        byDestination.computeIfPresent(destination, (d, w) -> {
            synchronized (w) {
                return w == waiting && w.pulls.isEmpty() && !w.passing ? null : w;
            }
        });
    }

    /** One pass over the held pulls of the subscriptions in {@code only} (null: of every subscription). */
    private static void pass(Waiting waiting, Set<Object> only) {
        List<List<HeldPull>> turns = new ArrayList<>();
        synchronized (waiting) {
            if (only == null) {
                for (LinkedHashSet<HeldPull> ofSubscription : waiting.pulls.values()) {
                    turns.add(new ArrayList<>(ofSubscription));
                }
            } else {
                for (Object subscription : only) {
                    LinkedHashSet<HeldPull> ofSubscription = waiting.pulls.get(subscription);
                    if (ofSubscription != null) {
                        turns.add(new ArrayList<>(ofSubscription));
                    }
                }
            }
        }
        for (List<HeldPull> turn : turns) {
            if (oneConsumer(turn)) {
                for (HeldPull p : turn) {
                    p.claim(Integer.MAX_VALUE);
                    if (p.hasRoom()) {
                        break; // it took all there is
                    }
                }
            } else {
                Map<Long, List<HeldPull>> byConsumer = new LinkedHashMap<>();
                for (HeldPull p : turn) {
                    byConsumer.computeIfAbsent(p.consumer(), c -> new ArrayList<>()).add(p);
                }
                boolean progress = true;
                while (progress) {
                    progress = false;
                    for (List<HeldPull> ofConsumer : byConsumer.values()) {
                        HeldPull open = firstWithRoom(ofConsumer);
                        progress |= open != null && open.claim(1) > 0;
                    }
                }
            }
            turn.forEach(HeldPull::answerIfAny);
        }
    }

    /** Whether the pulls are all of one consumer. */
    private static boolean oneConsumer(List<HeldPull> turn) {
        for (HeldPull p : turn) {
            if (p.consumer() != turn.get(0).consumer()) {
                return false;
            }
        }
        return true;
    }

    /** A consumer's pulls take its messages one after the other, oldest first: the one taking now. */
    private static HeldPull firstWithRoom(List<HeldPull> ofConsumer) {
        for (HeldPull p : ofConsumer) {
            if (p.hasRoom()) {
                return p;
            }
        }
        return null;
    }

    /** Answers every held pull with what it has (the broker stops). */
    public void expireAll() {
        for (Waiting waiting : byDestination.values()) {
            List<HeldPull> all;
            synchronized (waiting) {
                all = new ArrayList<>();
                waiting.pulls.values().forEach(all::addAll);
            }
            all.forEach(HeldPull::answer);
        }
    }

    /** How many destinations have pulls held or a pass running, for tests. */
    int destinations() {
        return byDestination.size();
    }

    /** Per consumer, how many of its pulls of {@code subscription} on the destination are held now. */
    public Map<Long, Integer> heldBy(String destination, Object subscription) {
        Map<Long, Integer> held = new TreeMap<>();
        Waiting waiting = byDestination.get(destination);
        if (waiting != null) {
            synchronized (waiting) {
                for (HeldPull p : waiting.pulls.getOrDefault(subscription, new LinkedHashSet<>())) {
                    held.merge(p.consumer(), 1, Integer::sum);
                }
            }
        }
        return held;
    }

    /** How many pulls are held now, for tests and metrics. */
    public int heldCount() {
        int n = 0;
        for (Waiting waiting : byDestination.values()) {
            synchronized (waiting) {
                for (LinkedHashSet<HeldPull> ofSubscription : waiting.pulls.values()) {
                    n += ofSubscription.size();
                }
            }
        }
        return n;
    }
}
