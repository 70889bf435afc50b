package io.ramjet.ra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.TransactionInProgressRuntimeException;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code createContext} on the pooled factory, as the container's {@code @Inject JMSContext} calls
 * it: a pooled connection enlisted in the caller's JTA transaction, with the section 12 rules of
 * Jakarta Messaging 3.1. A real embedded broker, Narayana as the transaction manager.
 */
class PooledContextTest extends BrokerAndTransactions {

    private static ConnectionFactory pooled(TestContainer container) throws Exception {
        RamjetResourceAdapter adapter = new RamjetResourceAdapter();
        adapter.setConnectionUrl(url());
        RamjetManagedConnectionFactory factory = new RamjetManagedConnectionFactory();
        factory.setResourceAdapter(adapter);
        return (ConnectionFactory) factory.createConnectionFactory(container);
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String receive(String queue, long timeoutMillis) {
        try (JMSContext plain = new RamjetConnectionFactory(url()).createContext()) {
            return plain.createConsumer(plain.createQueue(queue)).receiveBody(String.class, timeoutMillis);
        }
    }

    @Test
    void sendInACommittedJtaTransactionArrivesOnlyAtTheCommit() throws Exception {
        ConnectionFactory factory = pooled(new TestContainer(transactions));
        String queue = unique("ctx-committed");

        transactions.begin();
        try (JMSContext context = factory.createContext()) {
            context.createProducer().setProperty("kind", "jta").send(context.createQueue(queue), "kept");
        }
        assertNull(receive(queue, 300), "visible before the commit");
        transactions.commit();

        assertEquals("kept", receive(queue, 5_000));
    }

    @Test
    void sendInARolledBackJtaTransactionNeverArrives() throws Exception {
        ConnectionFactory factory = pooled(new TestContainer(transactions));
        String queue = unique("ctx-rolled-back");

        transactions.begin();
        try (JMSContext context = factory.createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            context.createProducer().send(context.createQueue(queue), "dropped");
        }
        transactions.rollback();

        assertNull(receive(queue, 500));
    }

    @Test
    void receiveInACommittedTransactionConsumesAndInARolledBackOneDoesNot() throws Exception {
        ConnectionFactory factory = pooled(new TestContainer(transactions));
        String queue = unique("ctx-receive");
        try (JMSContext plain = new RamjetConnectionFactory(url()).createContext()) {
            plain.createProducer().send(plain.createQueue(queue), "once");
        }

        transactions.begin();
        try (JMSContext context = factory.createContext()) {
            assertEquals("once", context.createConsumer(context.createQueue(queue)).receiveBody(String.class, 5_000));
        }
        transactions.rollback();
        transactions.begin();
        try (JMSContext context = factory.createContext()) {
            assertEquals("once", context.createConsumer(context.createQueue(queue)).receiveBody(String.class, 5_000));
        }
        transactions.commit();

        assertNull(receive(queue, 500));
    }

    @Test
    void contextInAJtaTransactionRefusesWhatSectionTwelveForbids() throws Exception {
        ConnectionFactory factory = pooled(new TestContainer(transactions));
        transactions.begin();
        try (JMSContext context = factory.createContext(JMSContext.AUTO_ACKNOWLEDGE)) {
            assertTrue(context.getTransacted(), "the session is the transaction's whatever mode was asked");
            assertEquals(JMSContext.SESSION_TRANSACTED, context.getSessionMode());
            assertThrows(TransactionInProgressRuntimeException.class, context::commit);
            assertThrows(TransactionInProgressRuntimeException.class, context::rollback);
            assertThrows(IllegalStateRuntimeException.class, context::recover);
            assertThrows(IllegalStateRuntimeException.class, () -> context.setClientID("x"));
            assertThrows(IllegalStateRuntimeException.class, () -> context.setExceptionListener(e -> { }));
            assertThrows(IllegalStateRuntimeException.class, context::stop);
            assertThrows(JMSRuntimeException.class, () -> context.createContext(JMSContext.AUTO_ACKNOWLEDGE));
        } finally {
            transactions.rollback();
        }
    }

    @Test
    void contextOutsideATransactionAcknowledgesAutomatically() throws Exception {
        ConnectionFactory factory = pooled(new TestContainer(transactions));
        String queue = unique("ctx-auto");
        try (JMSContext context = factory.createContext()) {
            assertFalse(context.getTransacted());
            assertEquals(JMSContext.AUTO_ACKNOWLEDGE, context.getSessionMode());
            assertThrows(IllegalStateRuntimeException.class, context::commit);
            context.createProducer().send(context.createQueue(queue), "now");
            assertEquals("now", context.createConsumer(context.createQueue(queue)).receiveBody(String.class, 5_000));
        }

        assertNull(receive(queue, 500), "consumed for good");
    }

    @Test
    void closedContextGivesItsConnectionBackToThePoolAndRefusesFurtherUse() throws Exception {
        TestContainer container = new TestContainer(transactions);
        ConnectionFactory factory = pooled(container);

        JMSContext first = factory.createContext();
        first.close();
        factory.createContext().close();

        assertEquals(1, container.created.size());
        assertThrows(IllegalStateRuntimeException.class, first::createTextMessage);
    }
}
