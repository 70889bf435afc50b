package io.ramjet.reliability;

import jakarta.jms.ConnectionFactory;
import org.junit.jupiter.api.function.Executable;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The application load of a failover test: {@link Publisher}s sending PERSISTENT messages
 * synchronously, round-robin to one queue per consuming mode, and one {@link Receiver} per queue
 * in that mode (an acknowledge mode or transacted), each queue with its own {@link Tally}.
 */
final class Traffic {

    private final List<Integer> modes;
    private final List<Publisher.Target> targets = new ArrayList<>();
    private final List<Receiver> receivers = new ArrayList<>();
    private final List<Thread> receiving = new ArrayList<>();
    private final List<Publisher> publishers = new ArrayList<>();
    private final List<Thread> publishing = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();

    private Traffic(List<Integer> modes) {
        this.modes = modes;
    }

    /**
     * @param modes     one queue and consumer per mode (an acknowledge mode or {@code Session.SESSION_TRANSACTED})
     * @param perSecond each publisher's rate
     */
    static Traffic start(ConnectionFactory factory, String prefix, List<Integer> modes, int publishers, int perSecond,
                         long seed) {
        Traffic traffic = new Traffic(modes);
        for (int i = 0; i < modes.size(); i++) {
            int mode = modes.get(i);
            String queue = prefix + "." + Receiver.modeName(mode);
            Tally tally = new Tally();
            traffic.targets.add(new Publisher.Target(queue, false, tally));
            Receiver r = new Receiver(factory, null, mode, s -> s.createConsumer(s.createQueue(queue)),
                    new Random(seed + i), tally);
            traffic.receivers.add(r);
            traffic.receiving.add(r.start("receiver-" + Receiver.modeName(mode)));
        }
        for (int i = 0; i < publishers; i++) {
            Publisher p = new Publisher(factory, "p" + i, traffic.targets, perSecond, traffic.stop::get);
            Thread t = new Thread(p, "publisher-" + i);
            t.start();
            traffic.publishers.add(p);
            traffic.publishing.add(t);
        }
        return traffic;
    }

    /** Each queue's tally, in the order of the modes. */
    List<Tally> tallies() {
        return targets.stream().map(Publisher.Target::tally).toList();
    }

    /** Waits until every publisher's sends return (the clients have found the master), so that a kill meets traffic. */
    void awaitFlowing(Duration timeout) {
        if (awaitSendsAfter(System.nanoTime(), timeout) < 0) {
            throw new AssertionError("no send returned within " + timeout + " of the traffic's start");
        }
    }

    /**
     * Waits until every publisher has had a send return after {@code nanos} ({@link System#nanoTime()}).
     *
     * @return ms from {@code nanos} to the last publisher's first send after it, or -1 if one had none in time
     */
    long awaitSendsAfter(long nanos, Duration timeout) {
        if (!Await.until(timeout, () -> publishers.stream().allMatch(p -> p.lastSentNanos > nanos))) {
            return -1;
        }
        return TimeUnit.NANOSECONDS.toMillis(publishers.stream().mapToLong(p -> p.lastSentNanos).min().orElseThrow()
                - nanos);
    }

    /** As {@link #finish(Duration)}, giving every message 60 s to arrive. */
    void finish() throws InterruptedException {
        finish(Duration.ofSeconds(60));
    }

    /**
     * Stops the publishers, waits until every queue has had what was sent (at most
     * {@code allDelivered}) and deliveries settled, and stops the receivers.
     */
    void finish(Duration allDelivered) throws InterruptedException {
        stop.set(true);
        for (Thread t : publishing) {
            t.join(Jms.CLOSE_TIMEOUT.multipliedBy(3).toMillis());
        }
        Await.until(allDelivered, () -> targets.stream().allMatch(t -> t.tally().lost() == 0));
        Await.settled(Duration.ofSeconds(2), Duration.ofSeconds(15),
                () -> targets.stream().mapToLong(t -> t.tally().deliveries()).sum());
        receivers.forEach(Receiver::finish);
        for (Thread t : receiving) {
            t.join(Jms.CLOSE_TIMEOUT.multipliedBy(2).toMillis());
        }
    }

    /**
     * Prints each queue's summary line and returns the checks every failover test makes: something
     * was sent, nothing sent is missing, nothing confirmed came back, nothing was stored twice (a
     * stored duplicate arrives as a new message, without JMSRedelivered).
     */
    List<Executable> checks(String test, int kills, String figures) {
        int failedSends = publishers.stream().mapToInt(p -> p.failedSends.get()).sum();
        sendFailures().forEach(e -> System.out.println("RELIABILITY " + test + ": a send failed: " + stackOf(e)));
        List<Executable> checks = new ArrayList<>();
        for (int i = 0; i < modes.size(); i++) {
            String mode = Receiver.modeName(modes.get(i));
            Tally tally = targets.get(i).tally();
            Receiver r = receivers.get(i);
            tally.summary(test + "[" + mode + "]", kills, figures + " failedSends(all queues)=" + failedSends
                    + " reconnects=" + r.reconnects + " confirmFailures=" + r.acknowledgeFailures);
            checks.add(() -> assertTrue(tally.sentCount() > 0, mode + ": nothing sent"));
            checks.add(() -> assertEquals(0, tally.lost(), mode + ": sent, never received " + tally.lostSample(5)));
            checks.add(() -> assertEquals(0, tally.acknowledgedCameBack(), mode + ": confirmed, then delivered again"));
            checks.add(() -> assertEquals(0, tally.redeliveredWithoutFlag(),
                    mode + ": stored twice (a repeat without JMSRedelivered)"));
        }
        return checks;
    }

    /** What the publishers' failed sends threw: exceptions that reached the application. */
    List<Exception> sendFailures() {
        return publishers.stream().flatMap(p -> p.sendFailures.stream()).toList();
    }

    private static String stackOf(Exception e) {
        StringWriter out = new StringWriter();
        e.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
