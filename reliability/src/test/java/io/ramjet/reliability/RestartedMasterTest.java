package io.ramjet.reliability;

import io.ramjet.controller.ReplicaInfo;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A master killed with records in its log that its slaves never had, and started again at once,
 * before the controllers would replace it on their own (their silent-master timeout is longer
 * than the test, and the slaves, cut off by their proxies, report nothing). Both slaves' replication
 * is cut, two sends are written on the master and stay unanswered under SYNC: one from a producer
 * in this JVM, which resends it after the failover, and one from a producer in a JVM of its own,
 * killed with the master, which never does. The restarted master's registration makes the
 * controllers elect an in-sync slave in a newer epoch; the restarted broker joins it as a slave,
 * truncates its unreplicated tail and comes back in sync. Every answered send is delivered once,
 * the resent one once (never twice), the one nobody resent never.
 */
class RestartedMasterTest {

    private static final String TEST = "RestartedMasterTest";
    private static final Duration BROKER_TIMEOUT = Duration.ofMillis(2_500);
    /** Longer than the test: only a lost-master report or the restarted master's registration replaces the master. */
    private static final Duration SILENT_TIMEOUT = Duration.ofSeconds(300);
    /** A broker JVM's start, the rest of the killed run's lease, an election and a join; the rest is load. */
    private static final Duration REJOIN_BOUND = Duration.ofSeconds(60);
    private static final Duration WRITTEN_BOUND = Duration.ofSeconds(30);
    private static final String QUEUE = "ha.restart";
    private static final int ANSWERED = 20;

    /** Slaves stay in the in-sync set and unanswered writes wait while the slaves are cut. */
    @RegisterExtension
    static final HaCluster CLUSTER = new HaCluster("restart", BROKER_TIMEOUT,
            Brokers.properties("replicaMaxLagMs", "300000", "replicaSyncTimeoutMs", "300000"), "")
            .proxied().silentMasterTimeout(SILENT_TIMEOUT);

    @Test
    void theRestartedMasterRejoinsAsASlaveAndItsUnansweredTailIsDeliveredOnlyWhenResent() throws Exception {
        ReplicaInfo before = CLUSTER.awaitInfo("all three in sync", ChildJvm.START_TIMEOUT,
                info -> info.hasMaster() && info.inSync().size() == HaCluster.BROKERS);
        GroupBroker master = CLUSTER.broker(before.masterId());
        List<Long> slaves = new ArrayList<>(before.members().keySet());
        slaves.remove(before.masterId());
        String run = UUID.randomUUID().toString();
        String resent = "resent-" + run;
        String orphan = "orphan-" + run;
        Tally tally = new Tally();
        ExecutorService sender = Executors.newSingleThreadExecutor();
        boolean resentWritten;
        boolean orphanWritten;
        boolean unanswered;
        boolean rejoined;
        long rejoinMillis;
        ReplicaInfo after;
        String resendFailure = null;
        try (Connection connection = CLUSTER.factory().createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue(QUEUE));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < ANSWERED; i++) {
                String id = "answered-" + i;
                producer.send(Jms.message(session, id));
                tally.sent(id);
            }
            slaves.forEach(CLUSTER::cut);
            Future<?> resend = sender.submit(() -> {
                producer.send(Jms.message(session, resent));
                return null;
            });
            resentWritten = Await.until(WRITTEN_BOUND, () -> inLog(master, resent));
            try (ClientProcess child = ClientProcess.start(TEST + "-producer", LargeChildren.CLIENT_HEAP,
                    OneSendChild.class, CLUSTER.url(), QUEUE, orphan)) {
                child.awaitLine("sending", ChildJvm.START_TIMEOUT);
                orphanWritten = Await.until(WRITTEN_BOUND, () -> inLog(master, orphan));
                unanswered = !resend.isDone() && child.line("sent").isEmpty();
            }
            long killedAt = System.nanoTime();
            master.kill();
            slaves.forEach(CLUSTER::heal);
            master.start();
            rejoined = Await.until(REJOIN_BOUND, () -> {
                ReplicaInfo info = CLUSTER.info();
                return info != null && info.masterId() != before.masterId() && info.epoch() > before.epoch()
                        && info.inSync().contains(before.masterId());
            });
            rejoinMillis = Duration.ofNanos(System.nanoTime() - killedAt).toMillis();
            after = CLUSTER.info();
            try {
                resend.get(REJOIN_BOUND.toMillis(), TimeUnit.MILLISECONDS);
                tally.sent(resent);
            } catch (ExecutionException | TimeoutException e) {
                resendFailure = e.toString();
            }
        } finally {
            sender.shutdownNow();
        }
        Drain.queue(CLUSTER.factory(), QUEUE, tally, Duration.ofSeconds(5), Duration.ofSeconds(60));
        boolean truncated = master.logSays("diverges from master");
        System.out.println("RELIABILITY " + TEST + ": before=" + before + " after=" + after + " rejoinedMs="
                + rejoinMillis + " sent=" + tally.sentCount() + " lost=" + tally.lost() + " duplicates="
                + tally.duplicates() + " orphanDelivered=" + tally.hasReceived(orphan));
        List<Executable> checks = new ArrayList<>();
        String failedResend = resendFailure;
        ReplicaInfo last = after;
        checks.add(() -> assertTrue(rejoined, "within " + REJOIN_BOUND + " a slave is master of a newer epoch and the"
                + " restarted broker " + before.masterId() + " is back in sync as its slave; the controllers say " + last));
        checks.add(() -> assertEquals(null, failedResend, "the resent send"));
        checks.add(() -> assertTrue(resentWritten && orphanWritten, "both sends written on the master"));
        checks.add(() -> assertTrue(unanswered, "both sends unanswered when the master was killed"));
        checks.add(() -> assertTrue(truncated, "the restarted broker truncated its tail as a slave"));
        checks.add(() -> assertEquals(0, tally.lost(), "answered or resent sends lost: " + tally.lostSample(5)));
        checks.add(() -> assertEquals(0, tally.duplicates(), "deliveries beyond the first"));
        checks.add(() -> assertFalse(tally.hasReceived(orphan), "a send nobody answered nor resent was delivered"));
        assertAll(checks);
    }

    private static boolean inLog(GroupBroker broker, String id) {
        try {
            return CommitLogs.contains(broker.dataDir(), id.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            return false;
        }
    }
}
