package io.ramjet.reliability;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A durable subscription consumed while a producer publishes and the broker is killed twice
 * and stopped cleanly once, at random. Nothing may be lost; with CLIENT_ACKNOWLEDGE
 * nothing whose acknowledge() returned may come back; with AUTO_ACKNOWLEDGE (acks pipelined as
 * in Artemis) a message may come back, but only saying JMSRedelivered=true.
 */
class DurableSubscriberTest {

    private static final String TOPIC = "rel.durable.T";
    private static final String CLIENT_ID = "rel-durable";
    private static final String SUBSCRIPTION = "rel-sub";

    @RegisterExtension
    final Brokers brokers = Brokers.perTest();

    @Test
    void clientAcknowledgedMessagesAreNeitherLostNorRedelivered() throws Exception {
        String test = "DurableSubscriberTest.clientAcknowledge";
        Run run = run(test, Session.CLIENT_ACKNOWLEDGE);
        assertAll(
                () -> assertEquals(2, run.chaos.kills(), "kills"),
                () -> assertEquals(0, run.tally.lost(), "published, never received: " + run.tally.lostSample(5)),
                () -> assertEquals(0, run.tally.acknowledgedCameBack(), "acknowledged, then delivered again"),
                () -> assertEquals(0, run.tally.redeliveredWithoutFlag(), "repeats without JMSRedelivered"));
    }

    @Test
    void autoAcknowledgedMessagesAreNotLostAndRepeatsSayRedelivered() throws Exception {
        String test = "DurableSubscriberTest.autoAcknowledge";
        Run run = run(test, Session.AUTO_ACKNOWLEDGE);
        assertAll(
                () -> assertEquals(2, run.chaos.kills(), "kills"),
                () -> assertEquals(0, run.tally.lost(), "published, never received: " + run.tally.lostSample(5)),
                () -> assertEquals(0, run.tally.redeliveredWithoutFlag(), "repeats without JMSRedelivered"));
    }

    private record Run(Tally tally, Chaos chaos) {
    }

    private Run run(String test, int acknowledgeMode) throws Exception {
        BrokerProcess broker = brokers.start(test, new Properties());
        ConnectionFactory factory = Jms.factory(broker);
        Tally tally = new Tally();
        try (Connection c = factory.createConnection()) {
            c.setClientID(CLIENT_ID);
            Session s = c.createSession(false, acknowledgeMode);
            s.createDurableConsumer(s.createTopic(TOPIC), SUBSCRIPTION).close();
        }
        try (Chaos chaos = new Chaos(test, broker, 2, 1, Duration.ofMillis(1_000), Duration.ofMillis(3_000))) {
            Receiver subscriber = new Receiver(factory, CLIENT_ID, acknowledgeMode,
                    session -> session.createDurableConsumer(session.createTopic(TOPIC), SUBSCRIPTION),
                    chaos.derived(1), tally);
            Publisher publisher = new Publisher(factory, "d", List.of(new Publisher.Target(TOPIC, true, tally)), 150,
                    chaos::isDone);
            Thread publishing = new Thread(publisher, "publisher");
            Thread subscribing = subscriber.start("subscriber");
            publishing.start();
            chaos.start();
            chaos.awaitDone(Duration.ofSeconds(120));
            publishing.join(Jms.CLOSE_TIMEOUT.multipliedBy(3).toMillis());
            Await.until(Duration.ofSeconds(30), () -> tally.lost() == 0);
            Await.settled(Duration.ofSeconds(2), Duration.ofSeconds(10), tally::deliveries);
            subscriber.finish();
            subscribing.join(Jms.CLOSE_TIMEOUT.multipliedBy(2).toMillis());
            tally.summary(test, chaos.kills(), "failedSends=" + publisher.failedSends.get()
                    + " reconnects=" + subscriber.reconnects + " acknowledgeFailures=" + subscriber.acknowledgeFailures
                    + " " + chaos.figures());
            return new Run(tally, chaos);
        }
    }
}
