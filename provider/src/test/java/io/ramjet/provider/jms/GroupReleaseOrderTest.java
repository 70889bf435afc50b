package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;

/**
 * A rolled-back group comes back in JMSXGroupSeq order, to its consumer only, while the broker
 * is busy with other work: the releases of what the consumer had prefetched reach the broker in
 * their order, and a competing consumer never finds a later message of the group
 * visible before an earlier one.
 */
class GroupReleaseOrderTest extends BrokerTestSupport {

    private static final int GROUP = 6;
    private static final int CONSUMED = 3;

    private static final AtomicBoolean loading = new AtomicBoolean(true);
    private static final List<Thread> load = new CopyOnWriteArrayList<>();
    private static Connection loadConnection;

    /** One thread sends and one receives on a queue of their own for as long as the class runs. */
    @BeforeAll
    static void startLoad() throws JMSException {
        loadConnection = connect();
        Queue queue = loadConnection.createSession(Session.AUTO_ACKNOWLEDGE).createQueue(unique("load"));
        Session sending = loadConnection.createSession(Session.AUTO_ACKNOWLEDGE);
        MessageProducer producer = sending.createProducer(queue);
        producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        MessageConsumer receiver = loadConnection.createSession(Session.AUTO_ACKNOWLEDGE).createConsumer(queue);
        load.add(new Thread(() -> {
            try {
                while (loading.get()) {
                    producer.send(sending.createTextMessage("load"));
                }
            } catch (JMSException e) {
                if (loading.get()) {
                    throw new IllegalStateException(e);
                }
            }
        }, "load-send"));
        load.add(new Thread(() -> {
            try {
                while (loading.get()) {
                    receiver.receive(SHORT);
                }
            } catch (JMSException e) {
                if (loading.get()) {
                    throw new IllegalStateException(e);
                }
            }
        }, "load-receive"));
        load.forEach(Thread::start);
    }

    @AfterAll
    static void stopLoad() throws Exception {
        loading.set(false);
        loadConnection.close();
        for (Thread t : load) {
            t.join(TIMEOUT);
        }
    }

    @RepeatedTest(50)
    void aRolledBackGroupComesBackInSequenceOrderToItsConsumer() throws Exception {
        try (Connection a = connect(); Connection b = connect()) {
            Session sa = a.createSession(true, Session.SESSION_TRANSACTED);
            Queue queue = MessageGroupsTest.queueWithGroup(a, "group-release", GROUP);
            MessageConsumer ca = sa.createConsumer(queue);
            for (int seq = 1; seq <= CONSUMED; seq++) {
                assertEquals(seq, ca.receive(TIMEOUT).getIntProperty("JMSXGroupSeq"));
            }
            List<Integer> toOther = new CopyOnWriteArrayList<>();
            b.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(queue)
                    .setMessageListener(m -> toOther.add(seqOf(m)));
            sa.rollback();
            for (int seq = 1; seq <= GROUP; seq++) {
                Message m = ca.receive(TIMEOUT);
                assertNotNull(m, "message " + seq + " of the group");
                assertEquals(seq, m.getIntProperty("JMSXGroupSeq"), "redelivered in order");
                assertEquals(seq <= CONSUMED, m.getJMSRedelivered(), "only the consumed ones count a delivery");
            }
            sa.commit();
            assertNull(ca.receive(SHORT));
            assertEquals(List.of(), toOther, "the group stays with its consumer");
        }
    }

    private static int seqOf(Message m) {
        try {
            return m.getIntProperty("JMSXGroupSeq");
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
