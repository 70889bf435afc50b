package io.ramjet.reliability;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.jms.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Power loss at broker level, not only {@code kill -9}: a broker process whose every force is
 * shadowed ({@link BrokerProcess#powerCutting}) under producers sending PERSISTENT messages
 * synchronously and consumers in AUTO, CLIENT and transacted modes, its power cut at random
 * instants several times: each cut kills the process and rewrites every file of its data
 * directory (CommitLog, ConsumeQueues, checkpoint, consumption snapshot with the consumers'
 * positions, transactions and subscriptions, the NON_PERSISTENT horizon) as of its last force,
 * the rest zeroed, and the broker restarts on that. Then every send that returned is received,
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
            int cuts;
            String figures;
            try (Chaos chaos = new Chaos(TEST, broker, CUTS, 0, Duration.ofMillis(1_000), Duration.ofMillis(3_000))) {
                traffic.awaitFlowing(ChildJvm.START_TIMEOUT);
                chaos.start();
                chaos.awaitDone(Duration.ofSeconds(180));
                cuts = chaos.kills();
                figures = chaos.figures();
            } finally {
                traffic.finish(Duration.ofSeconds(30));
            }
            List<Executable> checks = new ArrayList<>(traffic.checks(TEST, cuts, figures));
            int done = cuts;
            checks.add(() -> assertEquals(CUTS, done, "power cuts"));
            assertAll(checks);
        }
    }
}
