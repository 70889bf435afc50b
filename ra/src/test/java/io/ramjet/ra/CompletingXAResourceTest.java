package io.ramjet.ra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.provider.jms.transaction.RamjetXid;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Second phases whose own connection is gone, over a real embedded broker. */
class CompletingXAResourceTest {

    static EmbeddedBroker broker;

    @BeforeAll
    static void start() {
        broker = EmbeddedBroker.start();
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static ConnectionSettings settings() {
        return new ConnectionSettings("ramjet://" + broker.nameServerAddress(), null, null);
    }

    private static Xid newXid() {
        return new RamjetXid(7, UUID.randomUUID().toString().getBytes(StandardCharsets.US_ASCII),
                new byte[] {1});
    }

    /** The same Xid in another object without equals, as a transaction manager may pass it. */
    private static Xid copy(Xid xid) {
        return new Xid() {
            @Override
            public int getFormatId() {
                return xid.getFormatId();
            }

            @Override
            public byte[] getGlobalTransactionId() {
                return xid.getGlobalTransactionId().clone();
            }

            @Override
            public byte[] getBranchQualifier() {
                return xid.getBranchQualifier().clone();
            }
        };
    }

    private record Branch(XAConnection connection, XAResource resource) {
    }

    /**
     * A connection whose completing XA resource has {@code text} sent to {@code queue} under
     * {@code xid}, prepared when asked.
     */
    private static Branch branch(Xid xid, String queue, String text, boolean prepare) throws Exception {
        XAConnection connection = settings().openXA();
        XASession session = connection.createXASession();
        XAResource resource = new CompletingXAResource(session.getXAResource(), settings());
        resource.start(xid, XAResource.TMNOFLAGS);
        session.createProducer(session.createQueue(queue)).send(session.createTextMessage(text));
        resource.end(xid, XAResource.TMSUCCESS);
        if (prepare) {
            resource.prepare(xid);
        }
        return new Branch(connection, resource);
    }

    private static String receive(String queue) throws Exception {
        try (Connection connection = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress())
                .createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
            connection.start();
            Message m = consumer.receive(3_000);
            return m == null ? null : ((TextMessage) m).getText();
        }
    }

    @Test
    void preparedBranchCommitsOverANewConnectionWhenItsOwnIsClosed() throws Exception {
        Xid xid = newXid();
        String queue = "completing-" + UUID.randomUUID();
        Branch branch = branch(xid, queue, "committed elsewhere", true);
        branch.connection().close();

        branch.resource().commit(xid, false);

        assertEquals("committed elsewhere", receive(queue));
    }

    @Test
    void preparedBranchRollsBackOverANewConnectionWhenItsOwnIsClosed() throws Exception {
        Xid xid = newXid();
        String queue = "completing-" + UUID.randomUUID();
        Branch branch = branch(xid, queue, "rolled back elsewhere", true);
        branch.connection().close();

        branch.resource().rollback(copy(xid));

        try (XAConnection other = settings().openXA()) {
            assertEquals(0, other.createXASession().getXAResource()
                    .recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN).length);
        }
        assertNull(receive(queue));
    }

    @Test
    void unpreparedBranchWhoseConnectionIsClosedIsRolledBack() throws Exception {
        Xid xid = newXid();
        String queue = "completing-" + UUID.randomUUID();
        Branch branch = branch(xid, queue, "never prepared", false);
        branch.connection().close();

        branch.resource().rollback(xid);

        assertNull(receive(queue));
    }

    @Test
    void onePhaseCommitOnAClosedConnectionKeepsItsFailure() throws Exception {
        Xid xid = newXid();
        String queue = "completing-" + UUID.randomUUID();
        Branch branch = branch(xid, queue, "never prepared", false);
        branch.connection().close();

        assertThrows(XAException.class, () -> branch.resource().commit(xid, true));
        assertNull(receive(queue));
    }
}
