package io.ramjet.reliability;

import static org.junit.jupiter.api.Assertions.assertAll;

import jakarta.jms.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Power loss at broker level, not only {@code kill -9}: a broker process whose every force is
 * shadowed ({@link BrokerProcess#powerCutting}) under producers sending PERSISTENT messages
 * synchronously and consumers in AUTO, CLIENT and transacted modes, its power cut at random
 * instants several times: each cut kills the process and rewrites every file of its data
 * directory (CommitLog, ConsumeQueues, checkpoint, consumption snapshot with the consumers'
 * positions, transactions and subscriptions, the NON_PERSISTENT horizon) as of its last force,
 * the rest zeroed, and the broker restarts on that; every publisher sends again before the next
 * cut. Then every send that returned is received,
 * nothing acknowledged or committed comes back, and every repeat says JMSRedelivered. A page
 * cache that a {@code kill -9} keeps would hide a file forced too late; a power cut does not.
 */
class BrokerPowerCutTest {

    private static final String TEST = "BrokerPowerCutTest";
    private static final int CUTS = 4;

    @Test
    void everyAnsweredSendSurvivesPowerCutsAndNothingConfirmedComesBack() throws Exception {
        long seed = Chaos.seed();
        try (BrokerProcess broker = BrokerProcess.powerCutting("power-cut")) {
            broker.start();
            Traffic traffic = Traffic.start(Jms.factory(broker), "rel.powercut", List.of(Session.AUTO_ACKNOWLEDGE,
                    Session.CLIENT_ACKNOWLEDGE, Session.SESSION_TRANSACTED), 2, 200, seed);
            Random random = new Random(seed);
            List<Long> sendsFlowedAfterMs = new ArrayList<>();
            int cuts = 0;
            try {
                traffic.awaitFlowing(ChildJvm.START_TIMEOUT);
                for (int cut = 0; cut < CUTS; cut++) {
                    Thread.sleep(500 + random.nextInt(2_500)); // the random instant of the cut, not a condition
                    broker.kill();
                    cuts++;
                    broker.restart();
                    // every publisher sends again before the next cut, so that each cut meets traffic
                    sendsFlowedAfterMs.add(traffic.awaitSendsAfter(System.nanoTime(), ChildJvm.START_TIMEOUT));
                }
            } finally {
                traffic.finish(Duration.ofSeconds(30));
            }
            String figures = "seed=" + seed + " (replay with -Dreliability.seed=" + seed + ") firstSendsAfterCutMs="
                    + sendsFlowedAfterMs;
            assertAll(traffic.checks(TEST, cuts, figures));
        }
    }
}
