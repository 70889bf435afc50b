package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.Connection;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.util.HashSet;
import java.util.Set;

/** Durable and shared subscriptions, client ids and unsubscribe (sections 6.1.2, 8.3). */
class SubscriptionTest {

    private static String text(Message m) throws JMSException {
        assertNotNull(m, "message must arrive");
        return ((TextMessage) m).getText();
    }

    private Connection withClientId(Jms jms, String id) throws JMSException {
        Connection c = jms.factory().createConnection();
        jms.closeLater(c);
        c.setClientID(id);
        c.start();
        return c;
    }

    @ProviderTest
    void durableSubscriptionKeepsMessagesWhileNoConsumerIsActive(Jms jms) throws Exception {
        String id = jms.name("cid");
        Connection c = withClientId(jms, id);
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Topic t = jms.topic(s, "dur");
        s.createDurableSubscriber(t, "sub").close();
        s.createProducer(t).send(s.createTextMessage("while away"));
        c.close();
        Connection again = withClientId(jms, id);
        Session s2 = again.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer sub = s2.createDurableConsumer(t, "sub");
        assertEquals("while away", text(sub.receive(Jms.RECEIVE_MS)));
        sub.close();
        s2.unsubscribe("sub");
    }

    @ProviderTest
    void changingTheSelectorReplacesADurableSubscription(Jms jms) throws Exception {
        Connection c = withClientId(jms, jms.name("cid"));
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Topic t = jms.topic(s, "dursel");
        s.createDurableConsumer(t, "sub").close();
        s.createProducer(t).send(s.createTextMessage("old"));
        MessageConsumer replaced = s.createDurableConsumer(t, "sub", "x = 1", false);
        assertNull(replaced.receive(Jms.ABSENT_MS), "the old subscription and its messages are gone");
        replaced.close();
        s.unsubscribe("sub");
    }

    @ProviderTest
    void unsubscribeWithAnActiveConsumerIsRefused(Jms jms) throws Exception {
        Connection c = withClientId(jms, jms.name("cid"));
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Topic t = jms.topic(s, "active");
        MessageConsumer sub = s.createDurableConsumer(t, "sub");
        assertThrows(JMSException.class, () -> s.unsubscribe("sub"));
        sub.close();
        s.unsubscribe("sub");
    }

    @ProviderTest
    void unsubscribeOfAnUnknownNameIsRefused(Jms jms) throws Exception {
        Session s = withClientId(jms, jms.name("cid")).createSession(false, Session.AUTO_ACKNOWLEDGE);
        assertThrows(jakarta.jms.InvalidDestinationException.class, () -> s.unsubscribe("no-such-subscription"));
    }

    @ProviderTest
    void aDurableSubscriptionTakesOneConsumerAtATime(Jms jms) throws Exception {
        Connection c = withClientId(jms, jms.name("cid"));
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Topic t = jms.topic(s, "single");
        MessageConsumer first = s.createDurableConsumer(t, "sub");
        Session s2 = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        assertThrows(JMSException.class, () -> s2.createDurableConsumer(t, "sub"));
        first.close();
        s.unsubscribe("sub");
    }

    @ProviderTest
    void sharedConsumersSplitTheMessagesOfOneSubscription(Jms jms) throws Exception {
        Session s = jms.session();
        Topic t = jms.topic(s, "shared");
        MessageConsumer a = jms.session().createSharedConsumer(t, "shared-sub");
        MessageConsumer b = jms.session().createSharedConsumer(t, "shared-sub");
        MessageConsumer plain = jms.session().createConsumer(t);
        for (int i = 0; i < 20; i++) {
            s.createProducer(t).send(s.createTextMessage("m" + i));
        }
        Set<String> shared = new HashSet<>();
        int count = 0;
        for (MessageConsumer c : new MessageConsumer[] {a, b}) {
            Message m;
            while ((m = c.receive(Jms.ABSENT_MS)) != null) {
                shared.add(text(m));
                count++;
            }
        }
        assertEquals(20, count, "each message once across the shared consumers");
        assertEquals(20, shared.size());
        for (int i = 0; i < 20; i++) {
            assertEquals("m" + i, text(plain.receive(Jms.RECEIVE_MS)), "a separate subscription gets everything");
        }
    }

    @ProviderTest
    void sharedDurableSubscriptionNeedsNoClientIdAndOutlivesItsConsumers(Jms jms) throws Exception {
        Session s = jms.session();
        Topic t = jms.topic(s, "shdur");
        s.createSharedDurableConsumer(t, "sd").close();
        s.createProducer(t).send(s.createTextMessage("kept"));
        MessageConsumer c = jms.session().createSharedDurableConsumer(t, "sd");
        assertEquals("kept", text(c.receive(Jms.RECEIVE_MS)));
        c.close();
        s.unsubscribe("sd");
    }

    @ProviderTest
    void clientIdCanBeSetOnceBeforeUse(Jms jms) throws Exception {
        Connection c = jms.factory().createConnection();
        jms.closeLater(c);
        c.setClientID(jms.name("once"));
        assertEquals(jms.name("once"), c.getClientID());
        assertThrows(jakarta.jms.IllegalStateException.class, () -> c.setClientID("twice"));
    }

    @ProviderTest
    void aClientIdInUseIsRefused(Jms jms) throws Exception {
        withClientId(jms, jms.name("dup"));
        Connection other = jms.factory().createConnection();
        jms.closeLater(other);
        assertThrows(InvalidClientIDException.class, () -> other.setClientID(jms.name("dup")));
    }

    @ProviderTest
    void aClientIdIsFreeAgainAfterItsConnectionCloses(Jms jms) throws Exception {
        withClientId(jms, jms.name("free")).close();
        Connection other = jms.factory().createConnection();
        jms.closeLater(other);
        other.setClientID(jms.name("free"));
        assertEquals(jms.name("free"), other.getClientID());
    }

    @ProviderTest
    void classicDurableSubscriberNeedsAClientId(Jms jms) throws Exception {
        Session s = jms.session();
        Topic t = jms.topic(s, "noid");
        assertThrows(jakarta.jms.IllegalStateException.class, () -> s.createDurableSubscriber(t, "sub"));
    }

    @ProviderTest
    void durableNoLocalSkipsOwnMessages(Jms jms) throws Exception {
        Connection c = withClientId(jms, jms.name("cid"));
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Topic t = jms.topic(s, "durnolocal");
        MessageConsumer sub = s.createDurableSubscriber(t, "sub", null, true);
        s.createProducer(t).send(s.createTextMessage("mine"));
        Session other = jms.session();
        other.createProducer(t).send(other.createTextMessage("theirs"));
        assertEquals("theirs", text(sub.receive(Jms.RECEIVE_MS)));
        sub.close();
        s.unsubscribe("sub");
    }
}
