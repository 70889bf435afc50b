package io.ramjet.reliability;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Two producers send PERSISTENT messages synchronously, round-robin to four queues, each
 * consumed in one mode (AUTO, CLIENT, DUPS_OK, transacted), while the broker is killed at
 * random: every send that returned is received, every repeat says JMSRedelivered=true, and in
 * the modes that confirm (CLIENT, transacted) nothing confirmed comes back.
 */
class SyncSendTest {

    private static final String TEST = "SyncSendTest";
    private static final int[] MODES = {Session.AUTO_ACKNOWLEDGE, Session.CLIENT_ACKNOWLEDGE,
            Session.DUPS_OK_ACKNOWLEDGE, Session.SESSION_TRANSACTED};

    @RegisterExtension
    final Brokers brokers = Brokers.perTest();

    @Test
    void everyReturnedSendIsReceivedAndEveryRepeatSaysRedelivered() throws Exception {
        BrokerProcess broker = brokers.start("sync-send", new Properties());
        ConnectionFactory factory = Jms.factory(broker);
        List<Publisher.Target> targets = new ArrayList<>();
        for (int mode : MODES) {
            targets.add(new Publisher.Target("rel.sync." + Receiver.modeName(mode), false, new Tally()));
        }
        try (Chaos chaos = new Chaos(TEST, broker, 3, 0, Duration.ofMillis(1_000), Duration.ofMillis(3_500))) {
            List<Receiver> receivers = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < MODES.length; i++) {
                String queue = targets.get(i).name();
                Receiver r = new Receiver(factory, null, MODES[i], s -> s.createConsumer(s.createQueue(queue)),
                        chaos.derived(i), targets.get(i).tally());
                receivers.add(r);
                threads.add(r.start("receiver-" + Receiver.modeName(MODES[i])));
            }
            List<Publisher> publishers = List.of(new Publisher(factory, "p0", targets, 100, chaos::isDone),
                    new Publisher(factory, "p1", targets, 100, chaos::isDone));
            List<Thread> publishing = new ArrayList<>();
            for (Publisher p : publishers) {
                Thread t = new Thread(p, "publisher-" + publishing.size());
                t.start();
                publishing.add(t);
            }
            chaos.start();
            chaos.awaitDone(Duration.ofSeconds(120));
            for (Thread t : publishing) {
                t.join(Jms.CLOSE_TIMEOUT.multipliedBy(3).toMillis());
            }
            Await.until(Duration.ofSeconds(30), () -> targets.stream().allMatch(t -> t.tally().lost() == 0));
            Await.settled(Duration.ofSeconds(2), Duration.ofSeconds(10),
                    () -> targets.stream().mapToLong(t -> t.tally().deliveries()).sum());
            receivers.forEach(Receiver::finish);
            for (Thread t : threads) {
                t.join(Jms.CLOSE_TIMEOUT.multipliedBy(2).toMillis());
            }

            int failedSends = publishers.stream().mapToInt(p -> p.failedSends.get()).sum();
            List<Executable> checks = new ArrayList<>();
            checks.add(() -> assertEquals(3, chaos.kills(), "kills"));
            for (int i = 0; i < MODES.length; i++) {
                String mode = Receiver.modeName(MODES[i]);
                Tally tally = targets.get(i).tally();
                Receiver r = receivers.get(i);
                tally.summary(TEST + "[" + mode + "]", chaos.kills(), "failedSends(all queues)=" + failedSends
                        + " reconnects=" + r.reconnects + " confirmFailures=" + r.acknowledgeFailures
                        + " " + chaos.figures());
                checks.add(() -> assertEquals(0, tally.lost(), mode + ": sent, never received " + tally.lostSample(5)));
                checks.add(() -> assertEquals(0, tally.redeliveredWithoutFlag(), mode + ": repeats without JMSRedelivered"));
                checks.add(() -> assertEquals(0, tally.acknowledgedCameBack(), mode + ": confirmed, then delivered again"));
            }
            assertAll(checks);
        }
    }
}
