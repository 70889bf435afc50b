package io.ramjet.reliability;

import jakarta.jms.JMSException;
import jakarta.jms.Message;

import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a test sent and what came back, by the test's own message id (a string property): a
 * message counts as sent only once its {@code send()} or {@code commit()} returned. From those
 * follow the figures every test prints and asserts on: lost (sent, never received), duplicates
 * (deliveries of an id beyond its first), redelivered without the flag (such a repeat that said
 * {@code JMSRedelivered=false}), acknowledged-then-redelivered (a repeat of an id whose
 * {@code acknowledge()} or {@code commit()} had returned) and in-doubt (received, but its send
 * had thrown, so it was never counted as sent). Thread-safe.
 */
final class Tally {

    private final Set<String> sent = new HashSet<>();
    private final Map<String, Long> sentNanos = new HashMap<>();
    private final Map<String, Integer> received = new HashMap<>();
    private final Set<String> acknowledged = new HashSet<>();
    /** Ids repeated without JMSRedelivered, in order, for the summary line. */
    private final Set<String> unflaggedRepeats = new TreeSet<>();
    /** How each id was first delivered (message id, delivery count, time), where the caller said. */
    private final Map<String, String> firstDelivery = new HashMap<>();
    /** Both deliveries of each unflagged repeat, for the summary line: what a failure is diagnosed from. */
    private final List<String> unflaggedDetails = new ArrayList<>();
    /** When each id was first delivered (nanoTime). */
    private final Map<String, Long> firstDeliveredNanos = new HashMap<>();
    private long deliveries;
    private long duplicates;
    private long redeliveredWithoutFlag;
    private long redeliveredWithFlag;
    private long acknowledgedCameBack;

    synchronized void sent(String id) {
        sent.add(id);
        sentNanos.put(id, System.nanoTime());
    }

    synchronized void sent(Collection<String> ids) {
        ids.forEach(this::sent);
    }

    synchronized void received(String id, boolean redelivered) {
        received(id, redelivered, null);
    }

    /** A delivery of {@code m}, keeping its message id, delivery count and time for a failure's diagnosis. */
    void received(Message m) throws JMSException {
        String detail = m.getJMSMessageID() + " count=" + m.getIntProperty("JMSXDeliveryCount") + " at="
                + LocalTime.now();
        received(Jms.id(m), m.getJMSRedelivered(), detail);
    }

    private synchronized void received(String id, boolean redelivered, String detail) {
        deliveries++;
        firstDeliveredNanos.putIfAbsent(id, System.nanoTime());
        if (detail != null) {
            firstDelivery.putIfAbsent(id, detail);
        }
        int before = received.merge(id, 1, Integer::sum) - 1;
        if (redelivered) {
            redeliveredWithFlag++;
        }
        if (before > 0) {
            duplicates++;
            if (!redelivered) {
                redeliveredWithoutFlag++;
                unflaggedRepeats.add(id);
                if (detail != null) {
                    unflaggedDetails.add(id + " first(" + firstDelivery.get(id) + ") again(" + detail + ")");
                }
            }
            if (acknowledged.contains(id)) {
                acknowledgedCameBack++;
            }
        }
    }

    /** Ids whose acknowledgement (or consuming transaction's commit) returned. */
    synchronized void acknowledged(Collection<String> ids) {
        acknowledged.addAll(ids);
    }

    synchronized int sentCount() {
        return sent.size();
    }

    synchronized int distinctReceived() {
        return received.size();
    }

    synchronized boolean hasReceived(String id) {
        return received.containsKey(id);
    }

    synchronized long deliveries() {
        return deliveries;
    }

    /** Sent and not received (yet). */
    synchronized int lost() {
        int n = 0;
        for (String id : sent) {
            if (!received.containsKey(id)) {
                n++;
            }
        }
        return n;
    }

    synchronized List<String> lostSample(int max) {
        Set<String> lost = new TreeSet<>();
        for (String id : sent) {
            if (!received.containsKey(id)) {
                lost.add(id);
            }
        }
        return lost.stream().limit(max).toList();
    }

    /** When each lost id's send returned ({@link System#nanoTime()}), in no order. */
    synchronized List<Long> lostSendTimes() {
        return sent.stream().filter(id -> !received.containsKey(id)).map(sentNanos::get).toList();
    }

    /** Sends that returned in [fromNanos, toNanos]. */
    synchronized int sentBetween(long fromNanos, long toNanos) {
        return (int) sentNanos.values().stream().filter(t -> t - fromNanos >= 0 && toNanos - t >= 0).count();
    }

    synchronized long duplicates() {
        return duplicates;
    }

    /** When each id repeated without JMSRedelivered was first delivered (nanoTime). */
    synchronized List<Long> unflaggedRepeatFirstDeliveries() {
        return unflaggedRepeats.stream().map(firstDeliveredNanos::get).toList();
    }

    synchronized long redeliveredWithoutFlag() {
        return redeliveredWithoutFlag;
    }

    synchronized long redeliveredWithFlag() {
        return redeliveredWithFlag;
    }

    synchronized long acknowledgedCameBack() {
        return acknowledgedCameBack;
    }

    /** Received ids whose send was never confirmed (it threw, so it may or may not have stored). */
    synchronized int inDoubt() {
        int n = 0;
        for (String id : received.keySet()) {
            if (!sent.contains(id)) {
                n++;
            }
        }
        return n;
    }

    /** Prints and returns the one summary line of a test: {@code RELIABILITY test: messages=...}. */
    String summary(String test, int kills, String extra) {
        return summary(test, kills, this, extra);
    }

    /**
     * As {@link #summary(String, int, String)}, with the redelivery figures taken from where the
     * repeats were observed: a move's copies in B are new messages, its redeliveries come from A.
     */
    synchronized String summary(String test, int kills, Tally redeliveries, String extra) {
        String line = "RELIABILITY " + test + ": messages=" + sent.size() + " kills=" + kills + " lost=" + lost()
                + " duplicates=" + duplicates + " redeliveredWithoutFlag=" + redeliveries.redeliveredWithoutFlag()
                + " acknowledgedCameBack=" + redeliveries.acknowledgedCameBack()
                + " redeliveredFlagged=" + redeliveries.redeliveredWithFlag()
                + " deliveries=" + deliveries + " inDoubt=" + inDoubt()
                + (extra == null || extra.isEmpty() ? "" : " " + extra)
                + (lost() > 0 ? " lostSample=" + lostSample(5) : "")
                + (unflaggedRepeats.isEmpty() ? "" : " unflaggedRepeats=" + unflaggedRepeats.stream().limit(5).toList())
                + (unflaggedDetails.isEmpty() ? "" : " unflaggedDeliveries=" + unflaggedDetails.stream().limit(5).toList());
        System.out.println(line);
        return line;
    }
}
