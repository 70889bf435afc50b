package io.ramjet.reliability;

import io.ramjet.provider.jms.RamjetXAConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.jms.TransactionRolledBackException;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Transactions, XA and durable subscriptions across a master kill: a local
 * transaction open across it either commits on the new master (every message of it reached the
 * in-sync set) or rolls back on commit, and a later one commits; an XA branch prepared
 * on the old master is recovered from the new one and committed exactly once (listed no more,
 * its message delivered once); a durable subscription's unacknowledged messages come from the
 * new master, its acknowledged ones never.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HaTransactionsTest {

    private static final String TEST = "HaTransactionsTest";
    private static final Duration ELECTION_BOUND = Duration.ofSeconds(30);
    private static final Duration RECOVERY_SCAN_PAUSE = Duration.ofMillis(200);
    private static final Duration QUIET = Duration.ofSeconds(3);
    private static final Duration DRAIN_MAX = Duration.ofSeconds(30);

    @RegisterExtension
    static final HaCluster CLUSTER = new HaCluster("tx", Duration.ofMillis(2_500), new Properties(), "");

    @Test
    @Order(1)
    void aTransactionOpenAcrossTheFailoverCommitsWholeOrRollsBackAndALaterOneCommits() throws Exception {
        String queue = "ha.tx.local";
        ConnectionFactory factory = CLUSTER.factory();
        HaCluster.Failover failover;
        boolean committed;
        int attempts;
        try (Connection connection = factory.createConnection()) {
            // a browse finds the queue's route first: transacted sends are confirmed at commit, and
            // sends still looking up the route at the kill went to the next master, no transaction
            // open across the failover (the commit then rightly succeeded)
            connection.start();
            Session browsing = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            browsing.createBrowser(browsing.createQueue(queue)).getEnumeration().hasMoreElements();
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer producer = session.createProducer(session.createQueue(queue));
            producer.send(Jms.message(session, "open-1"));
            producer.send(Jms.message(session, "open-2"));
            failover = CLUSTER.killMaster(ELECTION_BOUND);
            committed = commitAcrossFailover(session);
            attempts = commitNext(session, producer);
        }
        CLUSTER.rejoin(failover.killedId());
        Tally tally = new Tally();
        tally.sent("next-1");
        if (committed) {
            tally.sent(List.of("open-1", "open-2"));
        }
        Drain.queue(factory, queue, tally, QUIET, DRAIN_MAX);
        tally.summary(TEST + ".local", 1, "failover=" + failover + " openTransactionCommitted=" + committed
                + " nextTransactionAttempts=" + attempts);
        assertAll(
                () -> assertEquals(0, tally.lost(), "messages of committed transactions"),
                () -> assertEquals(0, tally.inDoubt(), "messages of the rolled-back transaction delivered"),
                () -> assertEquals(committed ? 3 : 1, tally.deliveries(), "deliveries"));
    }

    /**
     * The commit of a transaction whose master died: the new master commits it when it holds
     * every message the session handed to the old one (they reached the in-sync set), else it
     * rolls back, which the commit reports as {@link TransactionRolledBackException}; any other
     * outcome fails the test.
     *
     * @return whether it committed
     */
    private static boolean commitAcrossFailover(Session session) throws JMSException {
        try {
            session.commit();
            return true;
        } catch (TransactionRolledBackException e) {
            return false;
        }
    }

    /**
     * Sends "next-1" in the session's next transaction and commits it; a transaction that rolls
     * back (a master fenced or replaced again meanwhile: on a loaded machine heartbeats come late)
     * is tried again, each with the same id, until {@link #ELECTION_BOUND} passed.
     *
     * @return the transactions tried
     */
    private static int commitNext(Session session, MessageProducer producer) throws Exception {
        long deadline = System.nanoTime() + ELECTION_BOUND.toNanos();
        for (int attempt = 1; ; attempt++) {
            producer.send(Jms.message(session, "next-1"));
            try {
                session.commit();
                return attempt;
            } catch (TransactionRolledBackException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
            }
        }
    }

    @Test
    @Order(2)
    void anXaBranchPreparedOnTheOldMasterIsCommittedOnceFromTheNewOne() throws Exception {
        String queue = "ha.tx.xa";
        RamjetXAConnectionFactory factory = new RamjetXAConnectionFactory(CLUSTER.url());
        Xid xid = new TestXid(4711, "ha-tests-gtrid".getBytes(StandardCharsets.UTF_8),
                "ha-tests-bqual".getBytes(StandardCharsets.UTF_8));
        try (XAConnection connection = factory.createXAConnection()) {
            XASession session = connection.createXASession();
            XAResource resource = session.getXAResource();
            resource.start(xid, XAResource.TMNOFLAGS);
            session.createProducer(session.createQueue(queue)).send(Jms.message(session, "xa-1"));
            resource.end(xid, XAResource.TMSUCCESS);
            assertEquals(XAResource.XA_OK, resource.prepare(xid), "prepare");
        }
        HaCluster.Failover failover = CLUSTER.killMaster(ELECTION_BOUND);
        List<Xid> recovered;
        List<Xid> afterCommit;
        try (XAConnection connection = factory.createXAConnection()) {
            XAResource resource = connection.createXASession().getXAResource();
            recovered = recoverUntilListed(resource, xid);
            resource.commit(xid, false);
            afterCommit = Arrays.asList(resource.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN));
        }
        CLUSTER.rejoin(failover.killedId());
        Tally tally = new Tally();
        tally.sent("xa-1");
        Drain.queue(factory, queue, tally, QUIET, DRAIN_MAX);
        tally.summary(TEST + ".xa", 1, "failover=" + failover + " recovered=" + recovered.size());
        assertAll(
                () -> assertTrue(recovered.stream().anyMatch(x -> TestXid.same(x, xid)),
                        "the prepared branch among " + recovered.size() + " recovered from the new master"),
                () -> assertFalse(afterCommit.stream().anyMatch(x -> TestXid.same(x, xid)),
                        "the committed branch still listed by recover()"),
                () -> assertEquals(0, tally.lost(), "the committed branch's message"),
                () -> assertEquals(1, tally.deliveries(), "deliveries"));
    }

    @Test
    @Order(3)
    void aDurableSubscriptionGivesItsUnacknowledgedMessagesFromTheNewMaster() throws Exception {
        String clientId = "ha-durable";
        String subscription = "ha-sub";
        ConnectionFactory factory = CLUSTER.factory();
        Tally tally = new Tally();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ids.add("d-" + i);
        }
        Connection subscriber = factory.createConnection();
        subscriber.setClientID(clientId);
        subscriber.start();
        Session session = subscriber.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Topic topic = session.createTopic("ha.tx.durable");
        MessageConsumer consumer = session.createDurableConsumer(topic, subscription);
        try (Connection publisher = factory.createConnection()) {
            Session s = publisher.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = s.createProducer(topic);
            for (String id : ids) {
                producer.send(Jms.message(s, id));
                tally.sent(id);
            }
        }
        List<String> acknowledged = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            Message m = consumer.receive(10_000);
            assertNotNull(m, "message " + i + " of 20 before the failover");
            tally.received(Jms.id(m), m.getJMSRedelivered());
            if (i < 10) {
                acknowledged.add(Jms.id(m));
            }
            if (i == 9) {
                m.acknowledge();
                tally.acknowledged(acknowledged);
            }
        }
        HaCluster.Failover failover = CLUSTER.killMaster(ELECTION_BOUND);
        Jms.closeQuietly(subscriber);
        try (Connection again = factory.createConnection()) {
            again.setClientID(clientId);
            again.start();
            Session s = again.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer c = s.createDurableConsumer(s.createTopic("ha.tx.durable"), subscription);
            Message last = null;
            long deadline = System.nanoTime() + DRAIN_MAX.toNanos();
            while (System.nanoTime() < deadline) {
                Message m = c.receive(QUIET.toMillis());
                if (m == null) {
                    break;
                }
                tally.received(Jms.id(m), m.getJMSRedelivered());
                last = m;
            }
            if (last != null) {
                last.acknowledge();
            }
            c.close();
            s.unsubscribe(subscription);
        }
        CLUSTER.rejoin(failover.killedId());
        tally.summary(TEST + ".durable", 1, "failover=" + failover);
        assertAll(
                () -> assertEquals(0, tally.lost(), "published, never received: " + tally.lostSample(5)),
                () -> assertEquals(0, tally.acknowledgedCameBack(), "acknowledged before the failover, delivered again"),
                () -> assertEquals(0, tally.redeliveredWithoutFlag(), "a repeat without JMSRedelivered"),
                () -> assertFalse(tally.deliveries() > 20 + 5, "deliveries " + tally.deliveries()
                        + ": more than the 20 published and the 5 in flight at the kill"));
    }

    /**
     * Runs recovery scans, as a transaction manager's recovery does periodically, until one lists
     * {@code xid} or {@link #ELECTION_BOUND} passed (the new master may not be routed to yet).
     *
     * @return what the last scan listed
     */
    private static List<Xid> recoverUntilListed(XAResource resource, Xid xid) throws XAException {
        long deadline = System.nanoTime() + ELECTION_BOUND.toNanos();
        while (true) {
            try {
                List<Xid> listed = Arrays.asList(resource.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN));
                if (listed.stream().anyMatch(x -> TestXid.same(x, xid)) || System.nanoTime() - deadline > 0) {
                    return listed;
                }
            } catch (XAException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
            }
            LockSupport.parkNanos(RECOVERY_SCAN_PAUSE.toNanos());
        }
    }

    /** A transaction manager's branch id, as Narayana would make one. */
    private record TestXid(int getFormatId, byte[] getGlobalTransactionId, byte[] getBranchQualifier) implements Xid {

        static boolean same(Xid a, Xid b) {
            return a.getFormatId() == b.getFormatId()
                    && Arrays.equals(a.getGlobalTransactionId(), b.getGlobalTransactionId())
                    && Arrays.equals(a.getBranchQualifier(), b.getBranchQualifier());
        }
    }
}
