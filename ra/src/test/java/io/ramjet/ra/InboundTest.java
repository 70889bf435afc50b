package io.ramjet.ra;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.transaction.TransactionManager;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import javax.transaction.xa.XAResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Activations over a real embedded broker: message endpoints made by a test factory whose
 * transacted endpoints begin and end Narayana transactions in before- and afterDelivery, as a
 * container does, and roll back when the listener threw.
 */
class InboundTest {

    private static final long TIMEOUT_SECONDS = 10;

    @TempDir
    static Path txStore;

    static EmbeddedBroker broker;
    static TransactionManager transactions;
    RamjetResourceAdapter adapter;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedBroker.start(config -> config.withMaxDeliveries(3));
        transactions = Narayana.transactionManager(txStore);
    }

    @AfterAll
    static void stopBroker() throws Exception {
        broker.close();
        Narayana.delete(txStore);
    }

    @BeforeEach
    void startAdapter() {
        adapter = new RamjetResourceAdapter();
        adapter.setConnectionUrl("ramjet://" + broker.nameServerAddress());
        adapter.start(new TestContainer(transactions));
    }

    @AfterEach
    void stopAdapter() {
        adapter.stop();
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static RamjetActivationSpec spec(String type, String destination) {
        RamjetActivationSpec spec = new RamjetActivationSpec();
        spec.setDestinationType(type);
        spec.setDestination(destination);
        spec.setMaxSession(2);
        spec.setReceiveTimeoutMs(200L);
        return spec;
    }

    private void send(boolean topic, String name, String... texts) throws JMSException {
        try (Connection connection = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress())
                .createConnection()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(
                    topic ? session.createTopic(name) : session.createQueue(name));
            for (String text : texts) {
                producer.send(session.createTextMessage(text));
            }
        }
    }

    @Test
    void queueMessagesReachTheEndpointInTransactions() throws Exception {
        String queue = unique("in-queue");
        Endpoints endpoints = new Endpoints(true, m -> false);
        adapter.endpointActivation(endpoints, spec(RamjetActivationSpec.QUEUE, queue));

        send(false, queue, "a", "b", "c");

        assertEquals(Set.of("a", "b", "c"), Set.copyOf(endpoints.take(3)));
        assertEquals(List.of(), endpoints.take(0));
    }

    /**
     * Two sessions wait ten receive timeouts each with nothing to take: no transaction is begun
     * until a message waits, then one for it.
     */
    @Test
    void idleSessionsBeginNoTransaction() throws Exception {
        String queue = unique("in-idle");
        Endpoints endpoints = new Endpoints(true, m -> false);
        adapter.endpointActivation(endpoints, spec(RamjetActivationSpec.QUEUE, queue));
        send(false, queue, "first");
        assertEquals(List.of("first"), endpoints.take(1));
        int begun = endpoints.transactionsBegun.get();

        await("no transaction begun while idle").during(Duration.ofMillis(10 * 200)).atMost(Duration.ofSeconds(5))
                .until(() -> endpoints.transactionsBegun.get() == begun);
        send(false, queue, "second");

        assertEquals(List.of("second"), endpoints.take(1));
        assertEquals(begun + 1, endpoints.transactionsBegun.get());
    }

    @Test
    void messageOfADeliveryThatRolledBackComesAgain() throws Exception {
        String queue = unique("in-retry");
        Endpoints endpoints = new Endpoints(true, m -> deliveryCount(m) == 1);
        adapter.endpointActivation(endpoints, spec(RamjetActivationSpec.QUEUE, queue));

        send(false, queue, "again");

        assertEquals(List.of("again", "again"), endpoints.take(2));
        assertEquals(List.of(1, 2), endpoints.deliveryCounts);
    }

    @Test
    void nonTransactedDeliveryThatThrowsIsRecoveredAndComesAgain() throws Exception {
        String queue = unique("in-plain");
        Endpoints endpoints = new Endpoints(false, m -> deliveryCount(m) == 1);
        adapter.endpointActivation(endpoints, spec(RamjetActivationSpec.QUEUE, queue));

        send(false, queue, "once more");

        assertEquals(List.of("once more", "once more"), endpoints.take(2));
    }

    @Test
    void durableTopicSubscriptionSharedBySessionsTakesEachMessageOnce() throws Exception {
        String topic = unique("in-topic");
        RamjetActivationSpec spec = spec(RamjetActivationSpec.TOPIC, topic);
        spec.setSubscriptionDurability("Durable");
        spec.setSubscriptionName(unique("archive"));
        Endpoints endpoints = new Endpoints(true, m -> false);
        adapter.endpointActivation(endpoints, spec);
        awaitSubscribed(endpoints);

        send(true, topic, "1", "2", "3", "4");

        assertEquals(Set.of("1", "2", "3", "4"), Set.copyOf(endpoints.take(4)));
        assertEquals(List.of(), endpoints.take(0));
    }

    @Test
    void deactivatedEndpointGetsNothingMore() throws Exception {
        String queue = unique("in-stop");
        Endpoints endpoints = new Endpoints(true, m -> false);
        RamjetActivationSpec spec = spec(RamjetActivationSpec.QUEUE, queue);
        adapter.endpointActivation(endpoints, spec);
        adapter.endpointDeactivation(endpoints, spec);

        send(false, queue, "late");

        assertEquals(List.of(), endpoints.take(0));
    }

    @Test
    void specWithoutDestinationOrDurableNameIsRefused() {
        RamjetActivationSpec noDestination = new RamjetActivationSpec();
        assertThrows(InvalidPropertyException.class, noDestination::validate);

        RamjetActivationSpec durableWithoutName = spec(RamjetActivationSpec.TOPIC, "t");
        durableWithoutName.setSubscriptionDurability("Durable");
        assertThrows(InvalidPropertyException.class, durableWithoutName::validate);

        RamjetActivationSpec clientAck = spec(RamjetActivationSpec.QUEUE, "q");
        clientAck.setAcknowledgeMode("Client-acknowledge");
        assertThrows(InvalidPropertyException.class, clientAck::validate);
    }

    /** A durable subscription exists once an endpoint was made; messages sent before that would not be kept. */
    private static void awaitSubscribed(Endpoints endpoints) throws InterruptedException {
        assertTrue(endpoints.made.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS) != null, "no endpoint was made");
    }

    private static int deliveryCount(Message m) {
        try {
            return m.getIntProperty("JMSXDeliveryCount");
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The container's side of message endpoints: each endpoint records the texts it is handed and
     * throws for those {@code fails} picks; a transacted one runs each delivery in a transaction
     * with its XA resource enlisted, rolled back when the delivery threw.
     */
    private static final class Endpoints implements MessageEndpointFactory {

        private final boolean transacted;
        private final Predicate<Message> fails;
        private final BlockingQueue<String> received = new LinkedBlockingQueue<>();
        final List<Integer> deliveryCounts = new java.util.concurrent.CopyOnWriteArrayList<>();
        final BlockingQueue<Object> made = new LinkedBlockingQueue<>();
        /** Narayana transactions begun by the endpoints' beforeDelivery. */
        final AtomicInteger transactionsBegun = new AtomicInteger();

        Endpoints(boolean transacted, Predicate<Message> fails) {
            this.transacted = transacted;
            this.fails = fails;
        }

        /** The next {@code count} texts, then nothing more for a short while (checked by the caller's equality). */
        List<String> take(int count) throws InterruptedException {
            List<String> texts = new java.util.ArrayList<>();
            for (int i = 0; i < count; i++) {
                String text = received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                if (text == null) {
                    break;
                }
                texts.add(text);
            }
            String extra = received.poll(500, TimeUnit.MILLISECONDS);
            if (extra != null) {
                texts.add(extra);
            }
            return texts;
        }

        @Override
        public MessageEndpoint createEndpoint(XAResource xaResource) {
            made.add(xaResource == null ? "plain" : xaResource);
            return new Endpoint(xaResource);
        }

        @Override
        public MessageEndpoint createEndpoint(XAResource xaResource, long timeout) {
            return createEndpoint(xaResource);
        }

        @Override
        public boolean isDeliveryTransacted(Method method) {
            return transacted;
        }

        @Override
        public String getActivationName() {
            return "test endpoint";
        }

        @Override
        public Class<?> getEndpointClass() {
            return Endpoint.class;
        }

        private final class Endpoint implements MessageEndpoint, MessageListener {

            private final XAResource xaResource;
            private final ConcurrentHashMap<Thread, Boolean> failed = new ConcurrentHashMap<>();

            Endpoint(XAResource xaResource) {
                this.xaResource = xaResource;
            }

            @Override
            public void beforeDelivery(Method method) {
                try {
                    transactionsBegun.incrementAndGet();
                    transactions.begin();
                    transactions.getTransaction().enlistResource(xaResource);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void onMessage(Message message) {
                try {
                    received.add(((TextMessage) message).getText());
                    deliveryCounts.add(deliveryCount(message));
                } catch (JMSException e) {
                    throw new IllegalStateException(e);
                }
                if (fails.test(message)) {
                    failed.put(Thread.currentThread(), true);
                    throw new IllegalStateException("failing on purpose");
                }
            }

            @Override
            public void afterDelivery() {
                try {
                    if (failed.remove(Thread.currentThread()) != null) {
                        transactions.rollback();
                    } else {
                        transactions.commit();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void release() {
            }
        }
    }
}
