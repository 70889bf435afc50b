package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.List;

/**
 * Methods called on closed objects or in the wrong mode throw {@link IllegalStateException}
 * (sections 6.1.8, 6.2.15, 8.8), and closing twice is harmless.
 */
class ClosedObjectTest {

    interface Call {
        void on(Fixture f) throws Exception;
    }

    record Row(String name, Call call) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Objects made open and then closed as the row needs. */
    static final class Fixture {
        final Jms jms;
        Connection connection;
        Session session;
        Queue queue;

        Fixture(Jms jms) throws JMSException {
            this.jms = jms;
            connection = jms.connection();
            session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            queue = jms.queue(session, "closed");
        }
    }

    private static final List<Row> CLOSED = new ArrayList<>();

    private static void closed(String name, Call call) {
        CLOSED.add(new Row(name, call));
    }

    static {
        closed("connection.createSession", f -> { f.connection.close(); f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE); });
        closed("connection.getClientID", f -> { f.connection.close(); f.connection.getClientID(); });
        closed("connection.setClientID", f -> { f.connection.close(); f.connection.setClientID("x"); });
        closed("connection.start", f -> { f.connection.close(); f.connection.start(); });
        closed("connection.getMetaData", f -> { f.connection.close(); f.connection.getMetaData(); });
        closed("connection.setExceptionListener", f -> { f.connection.close(); f.connection.setExceptionListener(e -> { }); });
        closed("session.createProducer", f -> { f.session.close(); f.session.createProducer(f.queue); });
        closed("session.createConsumer", f -> { f.session.close(); f.session.createConsumer(f.queue); });
        closed("session.createBrowser", f -> { f.session.close(); f.session.createBrowser(f.queue); });
        closed("session.createTextMessage", f -> { f.session.close(); f.session.createTextMessage("x"); });
        closed("session.createMessage", f -> { f.session.close(); f.session.createMessage(); });
        closed("session.createBytesMessage", f -> { f.session.close(); f.session.createBytesMessage(); });
        closed("session.createMapMessage", f -> { f.session.close(); f.session.createMapMessage(); });
        closed("session.createStreamMessage", f -> { f.session.close(); f.session.createStreamMessage(); });
        closed("session.createObjectMessage", f -> { f.session.close(); f.session.createObjectMessage(); });
        closed("session.createTemporaryQueue", f -> { f.session.close(); f.session.createTemporaryQueue(); });
        closed("session.createTemporaryTopic", f -> { f.session.close(); f.session.createTemporaryTopic(); });
        closed("session.getTransacted", f -> { f.session.close(); f.session.getTransacted(); });
        closed("session.getAcknowledgeMode", f -> { f.session.close(); f.session.getAcknowledgeMode(); });
        closed("session.recover", f -> { f.session.close(); f.session.recover(); });
        closed("session.commit", f -> { f.session.close(); f.session.commit(); });
        closed("session.rollback", f -> { f.session.close(); f.session.rollback(); });
        closed("session.getMessageListener", f -> { f.session.close(); f.session.getMessageListener(); });
        closed("session of closed connection", f -> { f.connection.close(); f.session.createMessage(); });
        closed("producer.send", f -> { MessageProducer p = f.session.createProducer(f.queue); p.close(); p.send(f.session.createMessage()); });
        closed("producer.getDestination", f -> { MessageProducer p = f.session.createProducer(f.queue); p.close(); p.getDestination(); });
        closed("producer.setPriority", f -> { MessageProducer p = f.session.createProducer(f.queue); p.close(); p.setPriority(3); });
        closed("producer.getDeliveryMode", f -> { MessageProducer p = f.session.createProducer(f.queue); p.close(); p.getDeliveryMode(); });
        closed("producer.setTimeToLive", f -> { MessageProducer p = f.session.createProducer(f.queue); p.close(); p.setTimeToLive(1); });
        closed("producer of closed session", f -> { MessageProducer p = f.session.createProducer(f.queue); f.session.close(); p.send(f.jms.session().createMessage()); });
        closed("consumer.receive", f -> { MessageConsumer c = f.session.createConsumer(f.queue); c.close(); c.receive(10); });
        closed("consumer.receiveNoWait", f -> { MessageConsumer c = f.session.createConsumer(f.queue); c.close(); c.receiveNoWait(); });
        closed("consumer.getMessageListener", f -> { MessageConsumer c = f.session.createConsumer(f.queue); c.close(); c.getMessageListener(); });
        closed("consumer.setMessageListener", f -> { MessageConsumer c = f.session.createConsumer(f.queue); c.close(); c.setMessageListener(m -> { }); });
        closed("consumer.getMessageSelector", f -> { MessageConsumer c = f.session.createConsumer(f.queue); c.close(); c.getMessageSelector(); });
        closed("consumer of closed connection", f -> { MessageConsumer c = f.session.createConsumer(f.queue); f.connection.close(); c.receiveNoWait(); });
        closed("commit of a non-transacted session", f -> f.session.commit());
        closed("rollback of a non-transacted session", f -> f.session.rollback());
        closed("recover of a transacted session", f -> f.connection.createSession(true, Session.SESSION_TRANSACTED).recover());
        closed("acknowledge after the session closed", f -> {
            Session client = f.connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            client.createProducer(f.queue).send(client.createMessage());
            Message m = client.createConsumer(f.queue).receive(Jms.RECEIVE_MS);
            client.close();
            m.acknowledge();
        });
        closed("setClientID after the connection was used", f -> f.connection.setClientID("late"));
    }

    static List<Row> closedRows() {
        return CLOSED;
    }

    @ProviderRows("closedRows")
    void throwsIllegalState(Jms jms, Row row) throws Exception {
        Fixture f = new Fixture(jms);
        assertThrows(IllegalStateException.class, () -> row.call().on(f));
    }

    interface ContextCall {
        void on(JMSContext context, Jms jms);
    }

    record ContextRow(String name, ContextCall call) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<ContextRow> contextRows() {
        return List.of(
                new ContextRow("createProducer", (c, j) -> c.createProducer()),
                new ContextRow("createConsumer", (c, j) -> c.createConsumer(c.createQueue(j.name("q")))),
                new ContextRow("createTextMessage", (c, j) -> c.createTextMessage("x")),
                new ContextRow("createBrowser", (c, j) -> c.createBrowser(c.createQueue(j.name("q")))),
                new ContextRow("createTemporaryQueue", (c, j) -> c.createTemporaryQueue()),
                new ContextRow("getClientID", (c, j) -> c.getClientID()),
                new ContextRow("getMetaData", (c, j) -> c.getMetaData()),
                new ContextRow("start", (c, j) -> c.start()),
                new ContextRow("recover", (c, j) -> c.recover()),
                new ContextRow("acknowledge", (c, j) -> c.acknowledge()));
    }

    @ProviderRows("contextRows")
    void closedContextThrowsIllegalStateRuntime(Jms jms, ContextRow row) {
        JMSContext context = jms.context();
        context.close();
        assertThrows(IllegalStateRuntimeException.class, () -> row.call().on(context, jms));
    }

    @ProviderTest
    void closingAConnectionTwiceIsHarmless(Jms jms) throws Exception {
        Connection c = jms.connection();
        c.close();
        assertDoesNotThrow(c::close);
    }

    @ProviderTest
    void closingASessionTwiceIsHarmless(Jms jms) throws Exception {
        Session s = jms.session();
        s.close();
        assertDoesNotThrow(s::close);
    }

    @ProviderTest
    void closingAConsumerAndProducerTwiceIsHarmless(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "twice");
        MessageConsumer c = s.createConsumer(q);
        MessageProducer p = s.createProducer(q);
        c.close();
        p.close();
        assertDoesNotThrow(c::close);
        assertDoesNotThrow(p::close);
    }

    @ProviderTest
    void closingAContextTwiceIsHarmless(Jms jms) {
        JMSContext c = jms.context();
        c.close();
        assertDoesNotThrow(c::close);
    }

    @ProviderTest
    void closingTheConnectionUnblocksAReceive(Jms jms) throws Exception {
        Connection c = jms.connection();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = s.createConsumer(jms.queue(s, "unblock"));
        Thread closer = new Thread(() -> {
            try {
                Thread.sleep(100);
                c.close();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        closer.start();
        long start = System.nanoTime();
        Message m = consumer.receive(Jms.RECEIVE_MS * 4);
        closer.join();
        org.junit.jupiter.api.Assertions.assertNull(m);
        org.junit.jupiter.api.Assertions.assertTrue(System.nanoTime() - start < java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(Jms.RECEIVE_MS * 3));
    }
}
