package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.Collections;
import java.util.List;

/** Message headers set by send and carried to the consumer (section 3.4) and JMSX properties. */
class HeaderTest {

    private record Sent(Message sent, Message received, long before, long after) {
    }

    private static Sent send(Jms jms, Message m, MessageProducer producer, Session s, Queue q) throws Exception {
        long before = System.currentTimeMillis();
        producer.send(m);
        long after = System.currentTimeMillis();
        Message got = s.createConsumer(q).receive(Jms.RECEIVE_MS);
        assertNotNull(got);
        return new Sent(m, got, before, after);
    }

    private static Sent send(Jms jms, java.util.function.Consumer<MessageProducer> setup) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "hdr");
        MessageProducer p = s.createProducer(q);
        setup.accept(p);
        return send(jms, s.createMessage(), p, s, q);
    }

    @ProviderTest
    void messageIdStartsWithIdPrefixAndIsSetOnTheSentMessage(Jms jms) throws Exception {
        Sent r = send(jms, p -> { });
        assertTrue(r.received().getJMSMessageID().startsWith("ID:"));
        assertEquals(r.sent().getJMSMessageID(), r.received().getJMSMessageID());
    }

    @ProviderTest
    void messageIdsDiffer(Jms jms) throws Exception {
        Session s = jms.session();
        MessageProducer p = s.createProducer(jms.queue(s, "ids"));
        Message a = s.createMessage();
        Message b = s.createMessage();
        p.send(a);
        p.send(b);
        assertNotEquals(a.getJMSMessageID(), b.getJMSMessageID());
    }

    @ProviderTest
    void timestampIsTheTimeOfSend(Jms jms) throws Exception {
        Sent r = send(jms, p -> { });
        long ts = r.received().getJMSTimestamp();
        assertTrue(ts >= r.before() && ts <= r.after(), ts + " not within send");
    }

    @ProviderTest
    void deliveryModeDefaultsToPersistent(Jms jms) throws Exception {
        assertEquals(DeliveryMode.PERSISTENT, send(jms, p -> { }).received().getJMSDeliveryMode());
    }

    @ProviderTest
    void deliveryModeOfTheProducerIsCarried(Jms jms) throws Exception {
        Sent r = send(jms, p -> uncheck(() -> p.setDeliveryMode(DeliveryMode.NON_PERSISTENT)));
        assertEquals(DeliveryMode.NON_PERSISTENT, r.received().getJMSDeliveryMode());
        assertEquals(DeliveryMode.NON_PERSISTENT, r.sent().getJMSDeliveryMode());
    }

    @ProviderTest
    void priorityDefaultsToFour(Jms jms) throws Exception {
        assertEquals(4, send(jms, p -> { }).received().getJMSPriority());
    }

    @ProviderTest
    void priorityOfTheProducerOverridesTheMessage(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "prio");
        MessageProducer p = s.createProducer(q);
        p.setPriority(7);
        Message m = s.createMessage();
        m.setJMSPriority(1);
        assertEquals(7, send(jms, m, p, s, q).received().getJMSPriority());
    }

    @ProviderTest
    void expirationIsZeroWithoutTimeToLive(Jms jms) throws Exception {
        assertEquals(0, send(jms, p -> { }).received().getJMSExpiration());
    }

    @ProviderTest
    void expirationIsTimestampPlusTimeToLive(Jms jms) throws Exception {
        Sent r = send(jms, p -> uncheck(() -> p.setTimeToLive(60_000)));
        assertEquals(r.received().getJMSTimestamp() + 60_000, r.received().getJMSExpiration());
    }

    @ProviderTest
    void deliveryTimeIsTimestampWithoutDelay(Jms jms) throws Exception {
        jms.skipOnArtemis("Artemis deviation: JMSDeliveryTime is 0 when no delay is set; section 3.4.13 sets it to"
                + " JMSTimestamp plus the delivery delay on every send");
        Sent r = send(jms, p -> { });
        assertEquals(r.received().getJMSTimestamp(), r.received().getJMSDeliveryTime());
    }

    @ProviderTest
    void deliveryTimeIsTimestampPlusDelay(Jms jms) throws Exception {
        Sent r = send(jms, p -> uncheck(() -> p.setDeliveryDelay(50)));
        // JMSTimestamp and the delivery time are both "the time of send"; a provider may read the
        // clock once for each (Artemis does), so they may differ by a millisecond or so
        long delta = r.received().getJMSDeliveryTime() - r.received().getJMSTimestamp();
        assertTrue(delta >= 50 && delta <= 60, "delivery time is timestamp + " + delta + " ms, not + 50");
        assertTrue(System.currentTimeMillis() >= r.received().getJMSDeliveryTime());
    }

    @ProviderTest
    void firstDeliveryIsNotRedelivered(Jms jms) throws Exception {
        Message got = send(jms, p -> { }).received();
        assertFalse(got.getJMSRedelivered());
        assertEquals(1, got.getIntProperty("JMSXDeliveryCount"));
    }

    @ProviderTest
    void replyToIsCarried(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "rt");
        Queue reply = jms.queue(s, "reply");
        Message m = s.createMessage();
        m.setJMSReplyTo(reply);
        Message got = send(jms, m, s.createProducer(q), s, q).received();
        assertEquals(reply.getQueueName(), ((Queue) got.getJMSReplyTo()).getQueueName());
    }

    @ProviderTest
    void replyToIsNullWhenNotSet(Jms jms) throws Exception {
        assertNull(send(jms, p -> { }).received().getJMSReplyTo());
    }

    @ProviderTest
    void correlationIdStringIsCarried(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "corr");
        Message m = s.createMessage();
        m.setJMSCorrelationID("order-17");
        assertEquals("order-17", send(jms, m, s.createProducer(q), s, q).received().getJMSCorrelationID());
    }

    @ProviderTest
    void correlationIdBytesAreCarried(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "corrb");
        Message m = s.createMessage();
        m.setJMSCorrelationIDAsBytes(new byte[] {1, 2, 3});
        assertArrayEquals(new byte[] {1, 2, 3}, send(jms, m, s.createProducer(q), s, q).received().getJMSCorrelationIDAsBytes());
    }

    @ProviderTest
    void typeIsCarried(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "type");
        Message m = s.createMessage();
        m.setJMSType("invoice");
        assertEquals("invoice", send(jms, m, s.createProducer(q), s, q).received().getJMSType());
    }

    @ProviderTest
    void destinationIsTheOneSentTo(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "dest");
        Message got = send(jms, s.createMessage(), s.createProducer(q), s, q).received();
        assertEquals(q.getQueueName(), ((Queue) got.getJMSDestination()).getQueueName());
    }

    @ProviderTest
    void groupPropertiesAreCarried(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "grp");
        Message m = s.createMessage();
        m.setStringProperty("JMSXGroupID", "g1");
        m.setIntProperty("JMSXGroupSeq", 3);
        Message got = send(jms, m, s.createProducer(q), s, q).received();
        assertEquals("g1", got.getStringProperty("JMSXGroupID"));
        assertEquals(3, got.getIntProperty("JMSXGroupSeq"));
    }

    @ProviderTest
    void metadataListsTheJmsxPropertiesItSupports(Jms jms) throws Exception {
        List<?> names = Collections.list(jms.connection().getMetaData().getJMSXPropertyNames());
        assertTrue(names.contains("JMSXGroupID"), names::toString);
        assertTrue(names.contains("JMSXGroupSeq"), names::toString);
        assertTrue(names.contains("JMSXDeliveryCount"), names::toString);
    }

    @ProviderTest
    void metadataGivesTheJmsVersion(Jms jms) throws Exception {
        var md = jms.connection().getMetaData();
        assertTrue(md.getJMSMajorVersion() >= 2);
        assertNotNull(md.getJMSProviderName());
    }

    @ProviderTest
    void invalidPropertyNamesAreRefused(Jms jms) throws Exception {
        Message m = jms.session().createMessage();
        assertThrows(IllegalArgumentException.class, () -> m.setIntProperty(null, 1));
        assertThrows(IllegalArgumentException.class, () -> m.setIntProperty("", 1));
    }

    @ProviderTest
    void objectPropertyRefusesNonPrimitiveTypes(Jms jms) throws Exception {
        Message m = jms.session().createMessage();
        assertThrows(jakarta.jms.MessageFormatException.class, () -> m.setObjectProperty("o", new Object()));
        assertThrows(jakarta.jms.MessageFormatException.class, () -> m.setObjectProperty("o", List.of()));
    }

    @ProviderTest
    void propertyNamesListsWhatWasSet(Jms jms) throws Exception {
        Message m = jms.session().createMessage();
        m.setIntProperty("a", 1);
        m.setStringProperty("b", "x");
        List<?> names = Collections.list(m.getPropertyNames());
        assertTrue(names.containsAll(List.of("a", "b")), names::toString);
        assertTrue(m.propertyExists("a"));
        assertFalse(m.propertyExists("c"));
        assertNull(m.getObjectProperty("c"));
    }

    private interface JmsAction {
        void run() throws Exception;
    }

    private static void uncheck(JmsAction action) {
        try {
            action.run();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
