package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

/** Acknowledge modes, recover and local transactions (sections 6.2.7 to 6.2.10). */
class AcknowledgeTest {

    private static String text(Message m) throws JMSException {
        assertNotNull(m, "message must arrive");
        return ((TextMessage) m).getText();
    }

    private static void send(Session s, Queue q, String... texts) throws JMSException {
        MessageProducer p = s.createProducer(q);
        for (String t : texts) {
            p.send(s.createTextMessage(t));
        }
    }

    @ProviderTest
    void autoAcknowledgedMessageIsNotRedeliveredToTheNextConsumer(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "auto");
        send(s, q, "a");
        MessageConsumer c = s.createConsumer(q);
        assertEquals("a", text(c.receive(Jms.RECEIVE_MS)));
        c.close();
        assertNull(jms.session().createConsumer(q).receive(Jms.ABSENT_MS));
    }

    @ProviderTest
    void clientAcknowledgeAcknowledgesEverythingTheSessionConsumed(Jms jms) throws Exception {
        Connection c = jms.connection();
        Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Queue q = jms.queue(s, "client");
        send(s, q, "a", "b", "c");
        MessageConsumer consumer = s.createConsumer(q);
        consumer.receive(Jms.RECEIVE_MS);
        Message second = consumer.receive(Jms.RECEIVE_MS);
        second.acknowledge();
        s.close();
        MessageConsumer next = jms.session().createConsumer(q);
        assertEquals("c", text(next.receive(Jms.RECEIVE_MS)));
        assertNull(next.receive(Jms.ABSENT_MS));
    }

    @ProviderTest
    void unacknowledgedClientMessagesComeBackRedeliveredAfterClose(Jms jms) throws Exception {
        Session s = jms.connection().createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Queue q = jms.queue(s, "clientclose");
        send(s, q, "a");
        assertEquals("a", text(s.createConsumer(q).receive(Jms.RECEIVE_MS)));
        s.close();
        Message again = jms.session().createConsumer(q).receive(Jms.RECEIVE_MS);
        assertEquals("a", text(again));
        assertTrue(again.getJMSRedelivered());
        assertEquals(2, again.getIntProperty("JMSXDeliveryCount"));
    }

    @ProviderTest
    void recoverRedeliversUnacknowledgedMessagesInOrder(Jms jms) throws Exception {
        Session s = jms.connection().createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Queue q = jms.queue(s, "recover");
        send(s, q, "a", "b");
        MessageConsumer c = s.createConsumer(q);
        assertEquals("a", text(c.receive(Jms.RECEIVE_MS)));
        assertEquals("b", text(c.receive(Jms.RECEIVE_MS)));
        s.recover();
        Message a = c.receive(Jms.RECEIVE_MS);
        assertEquals("a", text(a));
        assertTrue(a.getJMSRedelivered());
        assertEquals("b", text(c.receive(Jms.RECEIVE_MS)));
    }

    @ProviderTest
    void recoverInAutoModeRedeliversNothingAlreadyAcknowledged(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "autorecover");
        send(s, q, "a");
        MessageConsumer c = s.createConsumer(q);
        assertEquals("a", text(c.receive(Jms.RECEIVE_MS)));
        s.recover();
        assertNull(c.receive(Jms.ABSENT_MS), "an auto-acknowledged message is already acknowledged");
    }

    @ProviderTest
    void dupsOkDeliversEverythingOnce(Jms jms) throws Exception {
        Session s = jms.connection().createSession(false, Session.DUPS_OK_ACKNOWLEDGE);
        Queue q = jms.queue(s, "dups");
        for (int i = 0; i < 50; i++) {
            send(s, q, "m" + i);
        }
        MessageConsumer c = s.createConsumer(q);
        for (int i = 0; i < 50; i++) {
            assertEquals("m" + i, text(c.receive(Jms.RECEIVE_MS)));
        }
        assertEquals(Session.DUPS_OK_ACKNOWLEDGE, s.getAcknowledgeMode());
    }

    @ProviderTest
    void transactedSendsAreInvisibleUntilCommit(Jms jms) throws Exception {
        Session tx = jms.connection().createSession(true, Session.SESSION_TRANSACTED);
        Queue q = jms.queue(tx, "txsend");
        send(tx, q, "a", "b");
        MessageConsumer c = jms.session().createConsumer(q);
        assertNull(c.receive(Jms.ABSENT_MS));
        tx.commit();
        assertEquals("a", text(c.receive(Jms.RECEIVE_MS)));
        assertEquals("b", text(c.receive(Jms.RECEIVE_MS)));
    }

    @ProviderTest
    void rolledBackSendsAreNeverVisible(Jms jms) throws Exception {
        Session tx = jms.connection().createSession(true, Session.SESSION_TRANSACTED);
        Queue q = jms.queue(tx, "txroll");
        send(tx, q, "gone");
        tx.rollback();
        send(tx, q, "kept");
        tx.commit();
        MessageConsumer c = jms.session().createConsumer(q);
        assertEquals("kept", text(c.receive(Jms.RECEIVE_MS)));
        assertNull(c.receive(Jms.ABSENT_MS));
    }

    @ProviderTest
    void rolledBackReceivesAreRedelivered(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "txrecv");
        send(s, q, "a");
        Session tx = jms.connection().createSession(true, Session.SESSION_TRANSACTED);
        MessageConsumer c = tx.createConsumer(q);
        assertEquals("a", text(c.receive(Jms.RECEIVE_MS)));
        tx.rollback();
        Message again = c.receive(Jms.RECEIVE_MS);
        assertEquals("a", text(again));
        assertTrue(again.getJMSRedelivered());
        assertEquals(2, again.getIntProperty("JMSXDeliveryCount"));
        tx.commit();
        assertNull(jms.session().createConsumer(q).receive(Jms.ABSENT_MS));
    }

    @ProviderTest
    void committedReceivesAreGone(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "txcommit");
        send(s, q, "a");
        Session tx = jms.connection().createSession(true, Session.SESSION_TRANSACTED);
        assertEquals("a", text(tx.createConsumer(q).receive(Jms.RECEIVE_MS)));
        tx.commit();
        tx.close();
        assertNull(jms.session().createConsumer(q).receive(Jms.ABSENT_MS));
    }

    @ProviderTest
    void closingATransactedSessionRollsBack(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "txclose");
        send(s, q, "a");
        Session tx = jms.connection().createSession(true, Session.SESSION_TRANSACTED);
        assertEquals("a", text(tx.createConsumer(q).receive(Jms.RECEIVE_MS)));
        send(tx, q, "never");
        tx.close();
        MessageConsumer c = jms.session().createConsumer(q);
        Message again = c.receive(Jms.RECEIVE_MS);
        assertEquals("a", text(again));
        assertTrue(again.getJMSRedelivered());
        assertNull(c.receive(Jms.ABSENT_MS));
    }

    @ProviderTest
    void consumeAndProduceMovesAMessageExactlyOnce(Jms jms) throws Exception {
        Session s = jms.session();
        Queue in = jms.queue(s, "in");
        Queue out = jms.queue(s, "out");
        send(s, in, "work");
        Session tx = jms.connection().createSession(true, Session.SESSION_TRANSACTED);
        Message m = tx.createConsumer(in).receive(Jms.RECEIVE_MS);
        tx.createProducer(out).send(tx.createTextMessage(text(m) + " done"));
        tx.commit();
        assertEquals("work done", text(s.createConsumer(out).receive(Jms.RECEIVE_MS)));
        assertNull(s.createConsumer(in).receive(Jms.ABSENT_MS));
    }

    @ProviderTest
    void transactedSessionReportsItsMode(Jms jms) throws Exception {
        Session tx = jms.connection().createSession(true, Session.SESSION_TRANSACTED);
        assertTrue(tx.getTransacted());
        assertEquals(Session.SESSION_TRANSACTED, tx.getAcknowledgeMode());
        Session plain = jms.session();
        assertFalse(plain.getTransacted());
    }

    @ProviderTest
    void contextTransactionCommitsAndRollsBack(Jms jms) {
        JMSContext tx = jms.context(JMSContext.SESSION_TRANSACTED);
        Queue q = tx.createQueue(jms.name("ctx"));
        tx.createProducer().send(q, "gone");
        tx.rollback();
        tx.createProducer().send(q, "kept");
        tx.commit();
        JMSContext reader = jms.context();
        assertEquals("kept", reader.createConsumer(q).receiveBody(String.class, Jms.RECEIVE_MS));
        assertNull(reader.createConsumer(q).receiveBody(String.class, Jms.ABSENT_MS));
    }

    @ProviderTest
    void contextAcknowledgeInClientMode(Jms jms) {
        JMSContext ctx = jms.context(JMSContext.CLIENT_ACKNOWLEDGE);
        Queue q = ctx.createQueue(jms.name("ctxack"));
        ctx.createProducer().send(q, "a");
        assertEquals("a", ctx.createConsumer(q).receiveBody(String.class, Jms.RECEIVE_MS));
        ctx.acknowledge();
        ctx.close();
        assertNull(jms.context().createConsumer(q).receiveBody(String.class, Jms.ABSENT_MS));
    }

    @ProviderTest
    void contextCommitOutsideTransactionIsRefused(Jms jms) {
        JMSContext ctx = jms.context();
        assertThrows(jakarta.jms.IllegalStateRuntimeException.class, ctx::commit);
    }
}
