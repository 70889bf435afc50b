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

/** Client identifiers across connections (section 6.1.2) beyond those of SubscriptionTest. */
class ClientIdTest {

    private static Connection unstarted(Jms jms) throws JMSException {
        return jms.closeLater(jms.factory().createConnection());
    }

    @ProviderTest
    void aRefusedClientIdLeavesTheConnectionFreeToTakeAnother(Jms jms) throws Exception {
        unstarted(jms).setClientID(jms.name("taken"));
        Connection other = unstarted(jms);
        assertThrows(InvalidClientIDException.class, () -> other.setClientID(jms.name("taken")));
        other.setClientID(jms.name("other"));
        assertEquals(jms.name("other"), other.getClientID());
    }

    @ProviderTest
    void aStoppedConnectionStillHoldsItsClientId(Jms jms) throws Exception {
        Connection holder = unstarted(jms);
        holder.setClientID(jms.name("stopped"));
        holder.start();
        holder.stop();
        assertThrows(InvalidClientIDException.class, () -> unstarted(jms).setClientID(jms.name("stopped")));
    }

    @ProviderTest
    void closingOneHolderFreesOnlyItsOwnId(Jms jms) throws Exception {
        Connection first = unstarted(jms);
        first.setClientID(jms.name("first"));
        unstarted(jms).setClientID(jms.name("second"));
        first.close();
        unstarted(jms).setClientID(jms.name("first"));
        assertThrows(InvalidClientIDException.class, () -> unstarted(jms).setClientID(jms.name("second")));
    }

    @ProviderTest
    void connectionsWithoutClientIdShareANonDurableSharedSubscription(Jms jms) throws Exception {
        Session a = jms.session();
        Session b = jms.session();
        Topic topic = jms.topic(a, "shared");
        MessageConsumer ca = a.createSharedConsumer(topic, "sub");
        MessageConsumer cb = b.createSharedConsumer(topic, "sub");
        a.createProducer(topic).send(a.createTextMessage("once"));
        Message first = ca.receive(Jms.RECEIVE_MS / 2);
        Message second = first == null ? cb.receive(Jms.RECEIVE_MS) : cb.receive(Jms.ABSENT_MS);
        Message got = first != null ? first : second;
        assertNotNull(got, "one of the two consumers gets the message");
        assertEquals("once", ((TextMessage) got).getText());
        assertNull(first != null ? second : ca.receive(Jms.ABSENT_MS), "and only one");
    }
}
