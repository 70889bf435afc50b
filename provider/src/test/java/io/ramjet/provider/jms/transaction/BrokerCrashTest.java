package io.ramjet.provider.jms.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.provider.jms.RamjetXAConnectionFactory;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A broker, in a child JVM, killed with -9 while it holds the records of unfinished
 * transactions, then restarted on the same data and port: prepared XA branches come back from
 * recover() and end as the transaction manager says; a local transaction ends all-or-nothing.
 */
class BrokerCrashTest {

    private static final long TIMEOUT = 10_000;

    private NameServer nameServer;
    private Path data;
    private Process broker;

    @BeforeEach
    void start() throws Exception {
        nameServer = new NameServer(NameServerConfig.defaults().withPort(0));
        nameServer.start();
        data = Files.createTempDirectory("ramjet-xa-crash-");
    }

    @AfterEach
    void stop() throws Exception {
        if (broker != null) {
            broker.destroyForcibly();
            assertTrue(broker.waitFor(30, TimeUnit.SECONDS));
        }
        nameServer.close();
        EmbeddedBrokerFiles.delete(data);
    }

    @Test
    void preparedBranchesComeBackFromRecoverAfterAKilledBrokerRestarts() throws Exception {
        String address = startBroker(0);
        String queueName = "xa-crash-" + UUID.randomUUID().toString().substring(0, 8);
        Xid toCommit = xid();
        Xid toRollBack = xid();
        String url = "ramjet://" + nameServer.address();
        try (XAConnection xa = new RamjetXAConnectionFactory(url).createXAConnection()) {
            XASession session = xa.createXASession();
            Queue queue = session.createQueue(queueName);
            XAResource resource = session.getXAResource();
            for (Xid xid : List.of(toCommit, toRollBack)) {
                resource.start(xid, XAResource.TMNOFLAGS);
                session.createProducer(queue).send(session.createTextMessage(xid == toCommit ? "commit" : "rollback"));
                resource.end(xid, XAResource.TMSUCCESS);
                assertEquals(XAResource.XA_OK, resource.prepare(xid));
            }
        }
        broker.destroyForcibly();
        assertTrue(broker.waitFor(30, TimeUnit.SECONDS));
        startBroker(Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)));
        try (XAConnection xa = new RamjetXAConnectionFactory(url).createXAConnection();
             Connection plain = new RamjetConnectionFactory(url).createConnection()) {
            XAResource resource = xa.createXASession().getXAResource();
            List<Xid> prepared = Arrays.asList(resource.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN));
            assertTrue(prepared.contains(same(toCommit)), "recover lists " + toCommit + ": " + prepared);
            assertTrue(prepared.contains(same(toRollBack)), "recover lists " + toRollBack + ": " + prepared);
            plain.start();
            Session session = plain.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(queueName));
            assertNull(consumer.receive(300), "prepared branches stay invisible after the restart");
            resource.commit(toCommit, false);
            resource.rollback(toRollBack);
            TextMessage m = (TextMessage) consumer.receive(TIMEOUT);
            assertNotNull(m);
            assertEquals("commit", m.getText());
            assertNull(consumer.receive(300));
            assertEquals(List.of(), Arrays.asList(resource.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN)));
        }
    }

    @Test
    void aLocalTransactionCutByABrokerCrashEndsAllOrNothing() throws Exception {
        String address = startBroker(0);
        String url = "ramjet://" + nameServer.address();
        try (Connection connection = new RamjetConnectionFactory(url).createConnection()) {
            connection.start();
            Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
            Queue queue = tx.createQueue("local-crash-" + UUID.randomUUID().toString().substring(0, 8));
            CountDownLatch stored = new CountDownLatch(3);
            for (int i = 0; i < 3; i++) {
                tx.createProducer(queue).send(tx.createTextMessage("m" + i), new CompletionListener() {
                    @Override
                    public void onCompletion(Message message) {
                        stored.countDown();
                    }

                    @Override
                    public void onException(Message message, Exception exception) {
                    }
                });
            }
            assertTrue(stored.await(TIMEOUT, TimeUnit.MILLISECONDS), "the broker holds the half records");
            broker.destroyForcibly();
            assertTrue(broker.waitFor(30, TimeUnit.SECONDS));
            startBroker(Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)));
            boolean committed;
            try {
                tx.commit();
                committed = true;
            } catch (jakarta.jms.TransactionRolledBackException e) {
                committed = false;
            }
            Session plain = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = plain.createConsumer(queue);
            if (committed) {
                for (int i = 0; i < 3; i++) {
                    TextMessage m = (TextMessage) consumer.receive(TIMEOUT);
                    assertNotNull(m, "a commit that succeeded shows every message");
                    assertEquals("m" + i, m.getText());
                }
            }
            assertNull(consumer.receive(1_000), committed ? "each message once" : "a rolled-back commit shows none");
        }
    }

    private static Xid same(Xid xid) {
        return new RamjetXid(xid.getFormatId(), xid.getGlobalTransactionId(), xid.getBranchQualifier());
    }

    private static Xid xid() {
        return new RamjetXid(4712, UUID.randomUUID().toString().getBytes(StandardCharsets.US_ASCII), new byte[] {2});
    }

    /** Starts the broker child on the data directory; its address once it serves. */
    private String startBroker(int port) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        broker = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", System.getProperty("java.class.path"),
                ChildBroker.class.getName(), data.toString(), Integer.toString(port), nameServer.address())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(broker.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertNotNull(line, "the broker child ended before it served");
        assertTrue(line.startsWith("READY "), line);
        return line.substring("READY ".length());
    }
}
