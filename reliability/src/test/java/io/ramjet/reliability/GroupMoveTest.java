package io.ramjet.reliability;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Message groups while the broker is killed at random: three transacted sessions move grouped
 * messages from queue A to queue B (receive, send a copy with the same group and sequence, commit
 * every 1-10 messages). A group's messages go to one consumer at a time, in order, and a broker
 * restart forgets who owned a group, so the one rule that must survive every kill is the order:
 * what each group's copies sit in B as, drained after one more kill, is 1..N exactly once, in
 * order (copies of one group sit in one ConsumeQueue in commit order, so a commit of a later
 * message before an earlier one would show there).
 */
class GroupMoveTest {

    private static final String TEST = "GroupMoveTest";
    private static final int GROUPS = 20;
    private static final int PER_GROUP = 150;
    private static final String A = "rel.groups.A";
    private static final String B = "rel.groups.B";

    @RegisterExtension
    final Brokers brokers = Brokers.perTest();

    @Test
    void everyGroupArrivesInBOnceAndInOrderThroughRandomKills() throws Exception {
        BrokerProcess broker = brokers.start("group-move", new Properties());
        ConnectionFactory factory = Jms.factory(broker);
        Tally tally = new Tally();
        preload(factory, tally);

        try (Chaos chaos = new Chaos(TEST, broker, 3, 0, Duration.ofMillis(200), Duration.ofMillis(1_200))) {
            Tally fromA = new Tally();
            List<Mover> movers = List.of(new Mover(factory, chaos, chaos.derived(1), fromA, A, B),
                    new Mover(factory, chaos, chaos.derived(2), fromA, A, B),
                    new Mover(factory, chaos, chaos.derived(3), fromA, A, B));
            long moveMillis = Mover.moveAll(movers, chaos);

            broker.kill();
            broker.restart();
            Map<String, List<Integer>> inB = new HashMap<>();
            Drain.queue(factory, B, tally, () -> tally.lost() == 0, Duration.ofSeconds(5), Duration.ofSeconds(40),
                    m -> inB.computeIfAbsent(m.getStringProperty("JMSXGroupID"), g -> new ArrayList<>())
                            .add(m.getIntProperty("JMSXGroupSeq")));
            Map<String, List<Integer>> outOfOrder = outOfOrder(inB);

            tally.summary(TEST, chaos.kills(), fromA, Mover.figures(movers) + " groups=" + GROUPS
                    + " outOfOrder=" + outOfOrder.size() + " moveMs=" + moveMillis + " " + chaos.figures());
            assertAll(
                    () -> assertEquals(3, chaos.kills(), "kills"),
                    () -> assertEquals(0, tally.lost(), "messages of A never in B"),
                    () -> assertEquals(0, tally.duplicates(), "messages in B more than once"),
                    () -> assertEquals(Map.of(), outOfOrder, "groups whose copies in B are not 1.." + PER_GROUP
                            + " in order"),
                    () -> assertEquals(0, fromA.redeliveredWithoutFlag(), "repeats from A without JMSRedelivered"));
        }
    }

    /** The groups that do not read 1..PER_GROUP in that order, with what they read. */
    private static Map<String, List<Integer>> outOfOrder(Map<String, List<Integer>> groups) {
        Map<String, List<Integer>> bad = new TreeMap<>();
        for (int g = 0; g < GROUPS; g++) {
            List<Integer> seqs = groups.getOrDefault("g" + g, List.of());
            for (int i = 0; i < PER_GROUP; i++) {
                if (seqs.size() != PER_GROUP || seqs.get(i) != i + 1) {
                    bad.put("g" + g, seqs);
                    break;
                }
            }
        }
        return bad;
    }

    /** Sends the groups interleaved (1 of every group, then 2...), committed every 100. */
    private static void preload(ConnectionFactory factory, Tally tally) throws JMSException {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer producer = session.createProducer(session.createQueue(A));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            List<String> batch = new ArrayList<>();
            for (int seq = 1; seq <= PER_GROUP; seq++) {
                for (int g = 0; g < GROUPS; g++) {
                    String id = "g" + g + "-" + seq;
                    Message m = Jms.message(session, id);
                    m.setStringProperty("JMSXGroupID", "g" + g);
                    m.setIntProperty("JMSXGroupSeq", seq);
                    producer.send(m);
                    batch.add(id);
                    if (batch.size() == 100) {
                        session.commit();
                        tally.sent(batch);
                        batch.clear();
                    }
                }
            }
            session.commit();
            tally.sent(batch);
        }
    }
}
