package io.ramjet.samples;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ordered processing per key with message groups: order events of several customers go to one
 * queue with {@code JMSXGroupID = customer}, and several listeners (each its own session, so
 * they run in parallel) process them. Every customer's events are handled by one listener at a
 * time, in the order they were sent (created, paid, shipped), while different customers are
 * handled in parallel.
 * <pre>
 * mvn -q -pl samples exec:java -Dexec.mainClass=io.ramjet.samples.OrderGroups [-Dexec.args=ramjet://host:9876]
 * </pre>
 */
public final class OrderGroups {

    private static final Logger LOG = LoggerFactory.getLogger(OrderGroups.class);

    public static final String DEFAULT_URL = "ramjet://127.0.0.1:9876";
    public static final String QUEUE = "samples.orders";
    public static final List<String> STEPS = List.of("created", "paid", "packed", "shipped");

    /** One processed event: which listener handled which customer's step. */
    public record Handled(String listener, String customer, String step) {
    }

    private OrderGroups() {
    }

    public static void main(String[] args) throws Exception {
        String url = args.length > 0 ? args[0] : DEFAULT_URL;
        List<Handled> handled = run(new RamjetConnectionFactory(url), QUEUE, 6, 3);
        Map<String, List<String>> byCustomer = new TreeMap<>();
        for (Handled h : handled) {
            byCustomer.computeIfAbsent(h.customer(), c -> new ArrayList<>()).add(h.step() + " by " + h.listener());
        }
        byCustomer.forEach((customer, steps) -> System.out.println(customer + ": " + steps));
    }

    /**
     * Starts {@code listeners} listeners on the queue, sends every step of every customer's order
     * (customers interleaved), and returns what was handled, in the order it was handled.
     */
    public static List<Handled> run(ConnectionFactory factory, String queueName, int customers, int listeners)
            throws JMSException, InterruptedException {
        int total = customers * STEPS.size();
        List<Handled> handled = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(total);
        try (Connection connection = factory.createConnection()) {
            Session producerSession = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue queue = producerSession.createQueue(queueName);
            for (int l = 1; l <= listeners; l++) {
                String name = "listener-" + l;
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                session.createConsumer(queue).setMessageListener(m -> {
                    synchronized (handled) {
                        handled.add(handle(name, m));
                    }
                    done.countDown();
                });
            }
            connection.start();
            MessageProducer producer = producerSession.createProducer(queue);
            for (String step : STEPS) {
                for (int c = 1; c <= customers; c++) {
                    TextMessage event = producerSession.createTextMessage(step);
                    event.setStringProperty("JMSXGroupID", "customer-" + c);
                    producer.send(event);
                }
            }
            LOG.info("sent {} order events of {} customers to {}", total, customers, queueName);
            if (!done.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("handled " + (total - done.getCount()) + " of " + total + " events");
            }
        }
        synchronized (handled) {
            return List.copyOf(handled);
        }
    }

    private static Handled handle(String listener, Message m) {
        try {
            return new Handled(listener, m.getStringProperty("JMSXGroupID"), ((TextMessage) m).getText());
        } catch (JMSException e) {
            throw new IllegalStateException("cannot read an order event", e);
        }
    }
}
