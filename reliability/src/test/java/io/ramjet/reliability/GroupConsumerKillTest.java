package io.ramjet.reliability;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Message groups when a consumer's process dies: a consumer in a child JVM owns some groups and
 * is killed ({@code destroyForcibly}) mid-stream; its groups move to the consumer that survives,
 * which receives each group's remaining messages in order, starting with what the dead one had
 * not acknowledged (marked redelivered), so nothing is lost and nothing it acknowledged comes back.
 */
class GroupConsumerKillTest {

    private static final String TEST = "GroupConsumerKillTest";
    private static final int GROUPS = 20;
    private static final int PER_GROUP = 50;

    @RegisterExtension
    final Brokers brokers = Brokers.perTest();

    private record Seen(String group, int seq, boolean redelivered) {
        static Seen parse(String line) {
            String[] f = line.split(" ");
            return new Seen(f[0], Integer.parseInt(f[1]), Boolean.parseBoolean(f[2]));
        }
    }

    @Test
    void aKilledConsumersGroupsMoveInOrderAndNothingIsLost() throws Exception {
        BrokerProcess broker = brokers.start("group-kill", Brokers.properties());
        // a generous request timeout: the machine may be busy while two JVMs start beside this one
        ConnectionFactory factory = new RamjetConnectionFactory(broker.url() + "?requestTimeout=20000");
        String queue = "rel.groups.kill";
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue(queue));
            for (int seq = 1; seq <= PER_GROUP; seq++) {
                for (int g = 0; g < GROUPS; g++) {
                    Message m = session.createTextMessage("g" + g + "#" + seq);
                    m.setStringProperty("JMSXGroupID", "g" + g);
                    m.setIntProperty("JMSXGroupSeq", seq);
                    producer.send(m);
                }
            }
        }
        List<Seen> byChild = new ArrayList<>();
        CountDownLatch ready = new CountDownLatch(1);
        CountDownLatch someDone = new CountDownLatch(100);
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                GroupConsumerChild.class.getName(), broker.url(), queue)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.equals("ready")) {
                        ready.countDown();
                        continue;
                    }
                    synchronized (byChild) {
                        byChild.add(Seen.parse(line));
                    }
                    someDone.countDown();
                }
            } catch (Exception e) {
                // the child died: what it printed is all there is
            }
        }, "child-output");
        reader.start();
        try (Connection connection = factory.createConnection()) {
            assertTrue(ready.await(60, TimeUnit.SECONDS), "the child consumer started");
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer survivor = session.createConsumer(session.createQueue(queue));
            connection.start();
            List<Seen> bySurvivor = new ArrayList<>();
            Message first = survivor.receive(10_000);
            assertTrue(first != null, "the survivor gets groups of its own");
            bySurvivor.add(seen(first));
            assertTrue(someDone.await(60, TimeUnit.SECONDS), "the child consumed");
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            reader.join(10_000);
            for (Message m = survivor.receive(10_000); m != null; m = survivor.receive(3_000)) {
                bySurvivor.add(seen(m));
            }
            check(byChild, bySurvivor);
        } finally {
            child.destroyForcibly();
        }
    }

    private static Seen seen(Message m) throws Exception {
        return new Seen(m.getStringProperty("JMSXGroupID"), m.getIntProperty("JMSXGroupSeq"), m.getJMSRedelivered());
    }

    /**
     * Per group: the child's messages then the survivor's are 1..PER_GROUP in order, where the
     * survivor may repeat, marked redelivered, the child's last few (printed, not acknowledged).
     */
    private static void check(List<Seen> byChild, List<Seen> bySurvivor) {
        Map<String, Integer> childLast = new HashMap<>();
        for (Seen s : byChild) {
            int expected = childLast.getOrDefault(s.group(), 0) + 1;
            assertEquals(expected, s.seq(), "the child saw " + s.group() + " in order");
            childLast.put(s.group(), s.seq());
        }
        assertFalse(childLast.isEmpty(), "the child owned groups");
        Map<String, Integer> last = new HashMap<>();
        int repeats = 0;
        for (Seen s : bySurvivor) {
            Integer before = last.get(s.group());
            int childUpTo = childLast.getOrDefault(s.group(), 0);
            if (before == null && s.seq() <= childUpTo) {
                // the child acknowledges each message right after printing it: only its last can come back
                assertEquals(childUpTo, s.seq(), s + ": what the child acknowledged never comes back");
                assertTrue(s.redelivered(), s + " repeats what the child printed but did not acknowledge");
                repeats++;
            } else if (before == null) {
                assertEquals(childUpTo + 1, s.seq(), "the survivor continues " + s.group() + " where the child left it");
            } else {
                assertEquals(before + 1, s.seq(), "the survivor sees " + s.group() + " in order");
                if (s.seq() <= childUpTo) {
                    assertTrue(s.redelivered(), s + " was printed by the child");
                    repeats++;
                }
            }
            last.put(s.group(), s.seq());
        }
        for (int g = 0; g < GROUPS; g++) {
            assertEquals(PER_GROUP, (int) last.getOrDefault("g" + g, childLast.getOrDefault("g" + g, 0)),
                    "group g" + g + " complete");
        }
        System.out.println("RELIABILITY " + TEST + ": messages=" + GROUPS * PER_GROUP + " child=" + byChild.size()
                + " survivor=" + bySurvivor.size() + " repeated=" + repeats + " groupsOfChild=" + childLast.size());
    }
}
