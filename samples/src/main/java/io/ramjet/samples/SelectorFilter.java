package io.ramjet.samples;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.Message;
import jakarta.jms.Topic;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Message selectors: two subscribers on one topic, each seeing only the messages its selector
 * matches, one by a string property ({@value #RED}), one by a numeric range ({@value #HEAVY}).
 * The broker skips, by tag signature, messages that cannot match an equality term such as
 * {@code color = 'red'}; the client checks every selector whole. Uses the simplified
 * ({@link JMSContext}) API.
 * <pre>
 * mvn -q -pl samples exec:java -Dexec.mainClass=io.ramjet.samples.SelectorFilter [-Dexec.args=ramjet://host:9876]
 * </pre>
 */
public final class SelectorFilter {

    private static final Logger LOG = LoggerFactory.getLogger(SelectorFilter.class);

    public static final String DEFAULT_URL = "ramjet://127.0.0.1:9876";
    public static final String TOPIC = "samples.parcels";
    public static final String RED = "color = 'red'";
    public static final String HEAVY = "weight BETWEEN 10 AND 20";

    /** A parcel as published: a text body "parcel N" with a {@code color} and a {@code weight}. */
    public record Parcel(String color, int weight) {
    }

    /** What each subscriber received, in order: texts like {@code "parcel 3 red 12kg"}. */
    public record Received(List<String> red, List<String> heavy) {
    }

    private SelectorFilter() {
    }

    public static void main(String[] args) throws JMSException {
        String url = args.length > 0 ? args[0] : DEFAULT_URL;
        Received received = run(new RamjetConnectionFactory(url), TOPIC, List.of(
                new Parcel("red", 5), new Parcel("blue", 12), new Parcel("red", 15),
                new Parcel("green", 30), new Parcel("red", 25), new Parcel("blue", 20)));
        System.out.println("subscriber [" + RED + "] got " + received.red());
        System.out.println("subscriber [" + HEAVY + "] got " + received.heavy());
    }

    /** Subscribes with both selectors, publishes the parcels, and collects what each subscriber got. */
    public static Received run(ConnectionFactory factory, String topicName, List<Parcel> parcels) throws JMSException {
        try (JMSContext context = factory.createContext()) {
            Topic topic = context.createTopic(topicName);
            JMSConsumer red = context.createConsumer(topic, RED);
            JMSConsumer heavy = context.createConsumer(topic, HEAVY);

            JMSProducer producer = context.createProducer();
            for (int i = 0; i < parcels.size(); i++) {
                Parcel parcel = parcels.get(i);
                producer.setProperty("color", parcel.color())
                        .setProperty("weight", parcel.weight())
                        .send(topic, describe(i + 1, parcel));
            }
            LOG.info("published {} parcels to {}", parcels.size(), topicName);
            return new Received(drain(red), drain(heavy));
        }
    }

    private static String describe(int number, Parcel parcel) {
        return "parcel " + number + " " + parcel.color() + " " + parcel.weight() + "kg";
    }

    /** Receives until the consumer has been quiet for half a second. */
    private static List<String> drain(JMSConsumer consumer) throws JMSException {
        List<String> texts = new ArrayList<>();
        for (Message m = consumer.receive(2_000); m != null; m = consumer.receive(500)) {
            texts.add(m.getBody(String.class));
        }
        return texts;
    }
}
