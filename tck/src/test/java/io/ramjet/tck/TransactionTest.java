package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Local transactions beyond the basics of {@link AcknowledgeTest} (sections 6.2.9, 6.2.10, 7.3). */
class TransactionTest {

    private static String text(Message m) throws JMSException {
        assertNotNull(m, "message must arrive");
        return ((TextMessage) m).getText();
    }

    private static void send(Session s, jakarta.jms.Destination d, String... texts) throws JMSException {
        MessageProducer p = s.createProducer(d);
        for (String t : texts) {
            p.send(s.createTextMessage(t));
        }
    }

    @ProviderTest
    void rolledBackReceivesComeBackInTheirOrder(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "txorder");
        send(s, q, "a", "b", "c");
        Session tx = jms.connection().createSession(true, Session.SESSION_TRANSACTED);
        MessageConsumer c = tx.createConsumer(q);
        assertEquals("a", text(c.receive(Jms.RECEIVE_MS)));
        assertEquals("b", text(c.receive(Jms.RECEIVE_MS)));
        tx.rollback();
        Message a = c.receive(Jms.RECEIVE_MS);
        assertEquals("a", text(a));
        assertTrue(a.getJMSRedelivered());
        assertEquals("b", text(c.receive(Jms.RECEIVE_MS)));
        assertEquals("c", text(c.receive(Jms.RECEIVE_MS)));
        tx.commit();
    }

    @ProviderTest
    void eachCommitEndsOneTransactionAndStartsTheNext(Jms jms) throws Exception {
        Session tx = jms.connection().createSession(true, Session.SESSION_TRANSACTED);
        Queue q = jms.queue(tx, "txnext");
        send(tx, q, "first");
        tx.commit();
        send(tx, q, "second");
        tx.rollback();
        send(tx, q, "third");
        tx.commit();
        MessageConsumer c = jms.session().createConsumer(q);
        assertEquals("first", text(c.receive(Jms.RECEIVE_MS)));
        assertEquals("third", text(c.receive(Jms.RECEIVE_MS)));
        assertNull(c.receive(Jms.ABSENT_MS));
    }

    @ProviderTest
    void transactedPublishesReachTheSubscriberAtCommit(Jms jms) throws Exception {
        Session s = jms.session();
        Topic t = jms.topic(s, "txtopic");
        MessageConsumer subscriber = s.createConsumer(t);
        Session tx = jms.connection().createSession(true, Session.SESSION_TRANSACTED);
        send(tx, t, "news");
        assertNull(subscriber.receive(Jms.ABSENT_MS));
        tx.commit();
        assertEquals("news", text(subscriber.receive(Jms.RECEIVE_MS)));
    }

    @ProviderTest
    void aTransactedSubscriberGetsRolledBackMessagesAgain(Jms jms) throws Exception {
        Session tx = jms.connection().createSession(true, Session.SESSION_TRANSACTED);
        Topic t = jms.topic(tx, "txsub");
        MessageConsumer subscriber = tx.createConsumer(t);
        Session s = jms.session();
        send(s, t, "once");
        assertEquals("once", text(subscriber.receive(Jms.RECEIVE_MS)));
        tx.rollback();
        Message again = subscriber.receive(Jms.RECEIVE_MS);
        assertEquals("once", text(again));
        assertTrue(again.getJMSRedelivered());
        tx.commit();
        assertNull(subscriber.receive(Jms.ABSENT_MS));
    }

    @ProviderTest
    void aListenerCommitsItsOwnSession(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "txlistener");
        send(s, q, "a", "b");
        Session tx = jms.connection().createSession(true, Session.SESSION_TRANSACTED);
        List<String> seen = new CopyOnWriteArrayList<>();
        CountDownLatch committed = new CountDownLatch(2);
        tx.createConsumer(q).setMessageListener(m -> {
            try {
                seen.add(text(m));
                tx.commit();
                committed.countDown();
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        assertTrue(committed.await(Jms.RECEIVE_MS, TimeUnit.MILLISECONDS));
        assertEquals(List.of("a", "b"), seen);
        tx.close();
        assertNull(jms.session().createConsumer(q).receive(Jms.ABSENT_MS));
    }

    @ProviderTest
    void commitAndRollbackOfAClosedTransactedSessionThrowIllegalState(Jms jms) throws Exception {
        Session tx = jms.connection().createSession(true, Session.SESSION_TRANSACTED);
        tx.close();
        assertThrows(IllegalStateException.class, tx::commit);
        assertThrows(IllegalStateException.class, tx::rollback);
    }

    @ProviderTest
    void aContextRollbackRedeliversWhatItReceived(Jms jms) {
        JMSContext tx = jms.context(JMSContext.SESSION_TRANSACTED);
        Queue q = tx.createQueue(jms.name("ctxredeliver"));
        jms.context().createProducer().send(q, "again");
        JMSConsumer c = tx.createConsumer(q);
        assertEquals("again", c.receiveBody(String.class, Jms.RECEIVE_MS));
        tx.rollback();
        Message m = c.receive(Jms.RECEIVE_MS);
        assertNotNull(m);
        assertTrue(uncheckedRedelivered(m));
        tx.commit();
        assertNull(jms.context().createConsumer(q).receiveBody(String.class, Jms.ABSENT_MS));
    }

    @ProviderTest
    void aContextTransactionIsTransacted(Jms jms) {
        JMSContext tx = jms.context(JMSContext.SESSION_TRANSACTED);
        assertTrue(tx.getTransacted());
        assertEquals(JMSContext.SESSION_TRANSACTED, tx.getSessionMode());
        assertFalse(jms.context().getTransacted());
    }

    private static boolean uncheckedRedelivered(Message m) {
        try {
            return m.getJMSRedelivered();
        } catch (JMSException e) {
            throw new AssertionError(e);
        }
    }
}
