package io.ramjet.ra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionInProgressException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.security.PasswordCredential;
import java.util.UUID;
import javax.security.auth.Subject;
import org.junit.jupiter.api.Test;

/** The outbound side over a real embedded broker, with Narayana as the JTA transaction manager. */
class OutboundTest extends BrokerAndTransactions {

    private static RamjetManagedConnectionFactory managedFactory() {
        RamjetResourceAdapter adapter = new RamjetResourceAdapter();
        adapter.setConnectionUrl(url());
        RamjetManagedConnectionFactory factory = new RamjetManagedConnectionFactory();
        factory.setResourceAdapter(adapter);
        return factory;
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static void send(ConnectionFactory factory, String queue, String text) throws JMSException {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            session.createProducer(session.createQueue(queue)).send(session.createTextMessage(text));
        }
    }

    private static String receive(String queue, long timeoutMillis) throws JMSException {
        try (Connection connection = new RamjetConnectionFactory(url()).createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
            connection.start();
            Message m = consumer.receive(timeoutMillis);
            return m == null ? null : ((TextMessage) m).getText();
        }
    }

    @Test
    void sendInACommittedJtaTransactionArrives() throws Exception {
        ConnectionFactory factory = (ConnectionFactory) managedFactory().createConnectionFactory(new TestContainer(transactions));
        String queue = unique("committed");

        transactions.begin();
        send(factory, queue, "kept");
        assertNull(receive(queue, 300), "visible before the commit");
        transactions.commit();

        assertEquals("kept", receive(queue, 5_000));
    }

    @Test
    void sendInARolledBackJtaTransactionNeverArrives() throws Exception {
        ConnectionFactory factory = (ConnectionFactory) managedFactory().createConnectionFactory(new TestContainer(transactions));
        String queue = unique("rolled-back");

        transactions.begin();
        send(factory, queue, "dropped");
        transactions.rollback();

        assertNull(receive(queue, 500));
    }

    @Test
    void sendWithoutTransactionArrivesAtOnce() throws Exception {
        ConnectionFactory factory = (ConnectionFactory) managedFactory().createConnectionFactory(new TestContainer(transactions));
        String queue = unique("plain");

        send(factory, queue, "now");

        assertEquals("now", receive(queue, 5_000));
    }

    /**
     * A second instance of the adapter class, configured from ra.xml alone (as WildFly makes one
     * for each factory an application defines by annotation), connects where the instance the
     * administrator configured does.
     */
    @Test
    void factoryOfAnUnconfiguredAdapterConnectsWhereTheConfiguredOneDoes() throws Exception {
        RamjetResourceAdapter configured = new RamjetResourceAdapter();
        configured.setConnectionUrl(url());
        configured.start(new TestContainer(transactions));
        RamjetResourceAdapter fromRaXml = new RamjetResourceAdapter();
        fromRaXml.start(new TestContainer(transactions));
        try {
            RamjetManagedConnectionFactory managed = new RamjetManagedConnectionFactory();
            managed.setResourceAdapter(fromRaXml);
            ConnectionFactory factory = (ConnectionFactory) managed.createConnectionFactory(new TestContainer(transactions));
            String queue = unique("defaults");

            send(factory, queue, "reached");

            assertEquals("reached", receive(queue, 5_000));
        } finally {
            fromRaXml.stop();
            configured.stop();
        }
    }

    @Test
    void adapterNobodyConfiguredConnectsToThisMachine() {
        RamjetResourceAdapter adapter = new RamjetResourceAdapter();

        assertEquals(RamjetResourceAdapter.LOCAL, adapter.defaults());
    }

    /**
     * What the container passes for container-managed sign-on and for XA recovery with recovery
     * credentials: the broker (which knows no such user) is asked to accept that user, and refuses it.
     */
    @Test
    void passwordCredentialOfTheSubjectIsTheUserTheAdapterConnectsAs() throws Exception {
        RamjetManagedConnectionFactory managed = managedFactory();
        Subject subject = new Subject();
        PasswordCredential credential = new PasswordCredential("recovery", "secret".toCharArray());
        credential.setManagedConnectionFactory(managed);
        subject.getPrivateCredentials().add(credential);

        ResourceException refused = assertThrows(ResourceException.class,
                () -> managed.createManagedConnection(subject, null));

        assertTrue(refused.getMessage().endsWith(" as recovery"), refused.getMessage());
        assertInstanceOf(JMSSecurityException.class, refused.getCause());
        managed.createManagedConnection(new Subject(), null).destroy();
    }

    @Test
    void closedHandleGivesThePhysicalConnectionBackToThePool() throws Exception {
        TestContainer container = new TestContainer(transactions);
        ConnectionFactory factory = (ConnectionFactory) managedFactory().createConnectionFactory(container);

        factory.createConnection().close();
        factory.createConnection().close();

        assertEquals(1, container.created.size());
    }

    @Test
    void sessionInAJtaTransactionRefusesWhatSectionTwelveForbids() throws Exception {
        ConnectionFactory factory = (ConnectionFactory) managedFactory().createConnectionFactory(new TestContainer(transactions));
        transactions.begin();
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);

            assertTrue(session.getTransacted(), "arguments are ignored in a transaction");
            assertThrows(TransactionInProgressException.class, session::commit);
            assertThrows(TransactionInProgressException.class, session::rollback);
            assertThrows(IllegalStateException.class, () -> session.setMessageListener(m -> { }));
            assertThrows(IllegalStateException.class, connection::createSession);
            assertThrows(IllegalStateException.class, () -> connection.setClientID("mine"));
            assertThrows(IllegalStateException.class, () -> connection.setExceptionListener(e -> { }));
            assertThrows(IllegalStateException.class, connection::stop);
        } finally {
            transactions.rollback();
        }
    }

    @Test
    void sessionOutsideATransactionIsNotTransacted() throws Exception {
        ConnectionFactory factory = (ConnectionFactory) managedFactory().createConnectionFactory(new TestContainer(transactions));
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);

            assertFalse(session.getTransacted());
            assertEquals(Session.AUTO_ACKNOWLEDGE, session.getAcknowledgeMode());
            assertThrows(IllegalStateException.class, session::commit);
        }
    }

    @Test
    void secondSessionIsAllowedOnceTheFirstIsClosed() throws Exception {
        ConnectionFactory factory = (ConnectionFactory) managedFactory().createConnectionFactory(new TestContainer(transactions));
        try (Connection connection = factory.createConnection()) {
            connection.createSession().close();

            assertNotNull(connection.createSession());
        }
    }

    @Test
    void localTransactionCommitsOrRollsBackTheSessionWork() throws Exception {
        RamjetManagedConnectionFactory factory = managedFactory();
        String queue = unique("local");
        ManagedConnection managed = factory.createManagedConnection(null, null);
        try {
            LocalTransaction local = managed.getLocalTransaction();
            for (boolean commit : new boolean[] {false, true}) {
                local.begin();
                Connection handle = (Connection) managed.getConnection(null, null);
                Session session = handle.createSession();
                assertTrue(session.getTransacted());
                session.createProducer(session.createQueue(queue)).send(session.createTextMessage("commit=" + commit));
                handle.close();
                if (commit) {
                    local.commit();
                } else {
                    local.rollback();
                }
                managed.cleanup();
            }
        } finally {
            managed.destroy();
        }

        assertEquals("commit=true", receive(queue, 5_000));
        assertNull(receive(queue, 300));
    }

    @Test
    void managedConnectionsMatchOnlyTheirOwnUser() throws Exception {
        RamjetManagedConnectionFactory factory = managedFactory();
        ManagedConnection managed = factory.createManagedConnection(null, null);
        try {
            assertSame(managed, factory.matchManagedConnections(java.util.Set.of(managed), null, null));
            assertNull(factory.matchManagedConnections(java.util.Set.of(managed), null,
                    new RequestCredentials("someone", "else")));
        } finally {
            managed.destroy();
        }
    }

    @Test
    void unsetSettingsComeFromTheResourceAdapter() {
        RamjetManagedConnectionFactory factory = managedFactory();
        assertEquals(url(), factory.settings().url());

        factory.setConnectionUrl("ramjet://elsewhere:1");
        assertEquals("ramjet://elsewhere:1", factory.settings().url());
    }
}
