package io.ramjet.provider.jms.xa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.provider.jms.RamjetXAConnectionFactory;
import io.ramjet.provider.jms.transaction.Destinations;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Narayana completes, through its recovery manager, a transaction whose Ramjet branch was
 * prepared on a broker (a child JVM) that was killed before phase 2 reached it: after the
 * restart the branch comes back from recover() and ends as Narayana's log (commit) or its
 * presumed abort (rollback) says. The other participant is a {@link CrashingResource} that kills
 * the broker at the right step.
 */
@Timeout(45)
class XaRecoveryTest {

    private static final long TIMEOUT = 10_000;
    private static final long SHORT = 300;

    private static NarayanaRecovery narayana;

    private NameServer nameServer;
    private Path data;
    private BrokerProcess broker;
    private String url;
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeAll
    static void startNarayana() throws Exception {
        narayana = NarayanaRecovery.start(Files.createTempDirectory("ramjet-narayana-recovery-"));
    }

    @AfterAll
    static void stopNarayana() throws Exception {
        narayana.close();
    }

    @BeforeEach
    void start() throws Exception {
        nameServer = new NameServer(NameServerConfig.defaults().withPort(0));
        nameServer.start();
        url = "ramjet://" + nameServer.address();
        data = Files.createTempDirectory("ramjet-xa-recovery-");
        broker = BrokerProcess.start(data, nameServer.address());
    }

    @AfterEach
    void stop() throws Exception {
        try {
            TransactionManager tm = narayana.transactionManager();
            if (tm.getTransaction() != null) {
                tm.rollback();
            }
            for (AutoCloseable c : opened) {
                closeQuietly(c);
            }
        } finally {
            broker.close();
            nameServer.close();
            NarayanaSupport.delete(data);
        }
    }

    @Test
    void aBranchCutOffBeforeItsCommitIsCommittedByNarayanasRecovery() throws Exception {
        String source = Destinations.unique("xa-recovery-in");
        String target = Destinations.unique("xa-recovery-out");
        sendPlain(source, "to move");
        XAConnection xa = xaConnection();
        XASession session = xa.createXASession();
        MessageConsumer in = session.createConsumer(session.createQueue(source));
        CrashingResource other = CrashingResource.crashingAtCommit(broker::kill);
        TransactionManager tm = narayana.transactionManager();
        tm.begin();
        Transaction tx = tm.getTransaction();
        assertTrue(tx.enlistResource(other), "the crashing resource is enlisted first, so it commits first");
        assertTrue(tx.enlistResource(session.getXAResource()));
        assertEquals("to move", text(in.receive(TIMEOUT)));
        session.createProducer(session.createQueue(target)).send(session.createTextMessage("moved"));
        tm.commit();

        assertEquals(List.of("start", "end", "prepare", "commit"), other.steps());
        assertFalse(broker.alive(), "the broker died before Ramjet's commit");
        xa.close(); // the application's connection goes with the crash: its consumer must not take a redelivery
        assertEquals(1, narayana.unfinishedTransactions().size(), "Narayana keeps the transaction to recover");
        broker.restart();
        XAResource check = xaConnection().createXASession().getXAResource();
        assertEquals(1, branchesOf(other.xid(), check), "the prepared branch is in doubt after the restart");
        Session plain = plainSession();
        MessageConsumer onTarget = plain.createConsumer(plain.createQueue(target));
        MessageConsumer onSource = plain.createConsumer(plain.createQueue(source));
        assertNull(onTarget.receive(SHORT), "an in-doubt send stays invisible");
        assertNull(onSource.receive(SHORT), "an in-doubt consumed message stays held");

        recoverWithAFreshConnection();

        assertEquals("moved", text(onTarget.receive(TIMEOUT)), "recovery committed the send");
        assertNull(onTarget.receive(SHORT), "the send is visible once");
        assertNull(onSource.receive(SHORT), "the consumed message is acknowledged, never redelivered");
        assertEquals(List.of(), Arrays.asList(check.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN)));
        assertEquals(List.of(), narayana.unfinishedTransactions(), "Narayana finished the transaction");
    }

    @Test
    void aBranchCutOffBeforeItsRollbackIsRolledBackByNarayanasRecovery() throws Exception {
        String source = Destinations.unique("xa-recovery-in");
        String target = Destinations.unique("xa-recovery-out");
        sendPlain(source, "stays");
        XAConnection xa = xaConnection();
        XASession session = xa.createXASession();
        MessageConsumer in = session.createConsumer(session.createQueue(source));
        CrashingResource other = CrashingResource.crashingAtPrepareAndVotingRollback(broker::kill);
        TransactionManager tm = narayana.transactionManager();
        tm.begin();
        Transaction tx = tm.getTransaction();
        assertTrue(tx.enlistResource(session.getXAResource()), "Ramjet is enlisted first, so it prepares first");
        assertTrue(tx.enlistResource(other));
        assertEquals("stays", text(in.receive(TIMEOUT)));
        session.createProducer(session.createQueue(target)).send(session.createTextMessage("never"));
        assertThrows(RollbackException.class, tm::commit);

        assertEquals(List.of("start", "end", "prepare"), other.steps());
        assertFalse(broker.alive(), "the broker died before Ramjet's rollback");
        xa.close();
        assertEquals(List.of(), narayana.unfinishedTransactions(), "a rolled-back transaction leaves no log");
        broker.restart();
        XAResource check = xaConnection().createXASession().getXAResource();
        assertEquals(1, branchesOf(other.xid(), check), "the prepared branch is in doubt after the restart");
        Session plain = plainSession();
        MessageConsumer onTarget = plain.createConsumer(plain.createQueue(target));
        MessageConsumer onSource = plain.createConsumer(plain.createQueue(source));
        assertNull(onSource.receive(SHORT), "an in-doubt consumed message stays held");

        recoverWithAFreshConnection();

        assertEquals(List.of(), Arrays.asList(check.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN)));
        Message back = onSource.receive(TIMEOUT);
        assertEquals("stays", text(back), "the consumed message is back");
        assertTrue(back.getJMSRedelivered());
        assertEquals(2, back.getIntProperty("JMSXDeliveryCount"));
        assertNull(onTarget.receive(SHORT), "nothing sent is visible");
        assertEquals(List.of(), narayana.unfinishedTransactions());
    }

    /** Narayana's recovery scan, with a Ramjet XAResource of a new connection as the resource manager. */
    private void recoverWithAFreshConnection() throws Exception {
        try (XAConnection recovering = new RamjetXAConnectionFactory(url).createXAConnection()) {
            XAResource resource = recovering.createXASession().getXAResource();
            narayana.recover(() -> resource);
        }
    }

    /** How many branches of the global transaction of {@code xid} the broker lists as prepared. */
    private static long branchesOf(Xid xid, XAResource resource) throws Exception {
        assertNotNull(xid, "the transaction manager never started the crashing resource");
        return Arrays.stream(resource.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN))
                .filter(x -> Arrays.equals(x.getGlobalTransactionId(), xid.getGlobalTransactionId()))
                .count();
    }

    private void sendPlain(String queue, String text) throws JMSException {
        try (Connection c = new RamjetConnectionFactory(url).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue(queue);
            s.createProducer(q).send(s.createTextMessage(text));
        }
    }

    private XAConnection xaConnection() throws JMSException {
        XAConnection c = new RamjetXAConnectionFactory(url).createXAConnection();
        opened.add(c);
        c.start();
        return c;
    }

    private Session plainSession() throws JMSException {
        Connection c = new RamjetConnectionFactory(url).createConnection();
        opened.add(c);
        c.start();
        return c.createSession(false, Session.AUTO_ACKNOWLEDGE);
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // a connection of a killed broker may fail to close; the test is over
        }
    }

    private static String text(Message m) throws JMSException {
        assertNotNull(m, "no message");
        return ((TextMessage) m).getText();
    }
}
