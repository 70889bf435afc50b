package io.ramjet.junit5;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A JUnit 5 extension running an {@link EmbeddedBroker}: a NameServer and a broker on ephemeral
 * ports of 127.0.0.1, with a temporary data directory deleted when the broker stops.
 * <pre>{@code
 * @RegisterExtension
 * static RamjetBroker broker = RamjetBroker.create();   // one broker for the whole class
 *
 * @RegisterExtension
 * RamjetBroker broker = RamjetBroker.create();          // a fresh broker for each test
 * }</pre>
 * Registered in a static field, the broker starts before the class's first test and stops after
 * its last (nested classes share it); in an instance field it starts before each test and stops
 * after it (unless the class asks for {@code @TestInstance(PER_CLASS)}, whose one instance makes
 * it per class too). Tests connect through {@link #url()} or {@link #connectionFactory()}.
 * <p>
 * The helpers ({@link #send}, {@link #receive}, {@link #messageCount}, {@link #createQueue})
 * share one connection, opened on first use and closed with the broker; each call works in its
 * own auto-acknowledged session, so tests may call them from several threads. Like the
 * simplified JMS API they throw {@link JMSRuntimeException}.
 */
public final class RamjetBroker implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    private final UnaryOperator<BrokerConfig> tuning;
    private volatile Running running;

    private RamjetBroker(UnaryOperator<BrokerConfig> tuning) {
        this.tuning = tuning;
    }

    /** A broker with the default configuration and destinations created on first use. */
    public static RamjetBroker create() {
        return new RamjetBroker(UnaryOperator.identity());
    }

    /**
     * This extension with the broker configuration further adjusted by {@code adjustment} (say,
     * fewer deliveries before the dead-letter queue); ports, NameServer and data directory are
     * set afterwards.
     */
    public RamjetBroker configure(UnaryOperator<BrokerConfig> adjustment) {
        return new RamjetBroker(c -> adjustment.apply(tuning.apply(c)));
    }

    /** This extension with queues that exist from the start, whatever {@code autoCreateDestinations} says. */
    public RamjetBroker withQueues(String... names) {
        return configure(c -> c.withDestinations(concat(c.queues(), names), c.topics()));
    }

    /** This extension with topics that exist from the start. */
    public RamjetBroker withTopics(String... names) {
        return configure(c -> c.withDestinations(c.queues(), concat(c.topics(), names)));
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        startIfStopped(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        startIfStopped(context);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        stopIfStartedBy(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        stopIfStartedBy(context);
    }

    /** A static field gets beforeAll (and nested classes' beforeAll too); an instance field only beforeEach. */
    private synchronized void startIfStopped(ExtensionContext context) {
        if (running == null) {
            running = new Running(EmbeddedBroker.start(tuning), context.getUniqueId());
        }
    }

    private synchronized void stopIfStartedBy(ExtensionContext context) {
        Running r = running;
        if (r != null && r.startedBy.equals(context.getUniqueId())) {
            running = null;
            r.close();
        }
    }

    /** {@code ramjet://127.0.0.1:port}: the URL of the running broker's NameServer. */
    public String url() {
        return "ramjet://" + embeddedBroker().nameServerAddress();
    }

    /** A new connection factory for the running broker. */
    public RamjetConnectionFactory connectionFactory() {
        return new RamjetConnectionFactory(url());
    }

    /** The running broker itself, for what the helpers do not cover. */
    public EmbeddedBroker embeddedBroker() {
        return current().broker;
    }

    /** The running broker's data directory (deleted when it stops). */
    public Path dataDir() {
        return embeddedBroker().broker().config().dataDir();
    }

    /** Creates the queue on the broker now (as its first consumer would) and returns it. */
    public Queue createQueue(String name) {
        try (JMSContext session = current().session()) {
            Queue queue = session.createQueue(name);
            session.createConsumer(queue).close();
            return queue;
        }
    }

    /** Sends a persistent text message to the queue; returns it, with its message id set. */
    public TextMessage send(String queue, String text) {
        try (JMSContext session = current().session()) {
            TextMessage message = session.createTextMessage(text);
            session.createProducer().send(session.createQueue(queue), message);
            return message;
        }
    }

    /** Sends a message (one of any session, or of another provider) to the queue; returns it. */
    public Message send(String queue, Message message) {
        try (JMSContext session = current().session()) {
            session.createProducer().send(session.createQueue(queue), message);
            return message;
        }
    }

    /**
     * Takes the next message of the queue and acknowledges it, waiting up to {@code timeout}
     * (which must be positive); null when none came.
     */
    public Message receive(String queue, Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        try (JMSContext session = current().session();
             JMSConsumer consumer = session.createConsumer(session.createQueue(queue))) {
            return consumer.receive(timeout.toMillis());
        }
    }

    /**
     * How many messages of the queue a consumer could take now, as a {@link QueueBrowser} sees
     * them: messages delivered to a consumer and not yet acknowledged do not count.
     */
    public int messageCount(String queue) {
        try (JMSContext session = current().session();
             QueueBrowser browser = session.createBrowser(session.createQueue(queue))) {
            int count = 0;
            for (Enumeration<?> e = browser.getEnumeration(); e.hasMoreElements(); e.nextElement()) {
                count++;
            }
            return count;
        } catch (JMSException e) {
            throw new JMSRuntimeException(e.getMessage(), e.getErrorCode(), e);
        }
    }

    private Running current() {
        Running r = running;
        if (r == null) {
            throw new IllegalStateException("the broker is not running: register RamjetBroker with "
                    + "@RegisterExtension, and use it from tests or their @BeforeEach/@AfterEach methods");
        }
        return r;
    }

    private static List<String> concat(List<String> first, String... more) {
        List<String> all = new ArrayList<>(first);
        all.addAll(List.of(more));
        return all;
    }

    /** A started broker, the extension context that started it, and the helpers' connection. */
    private static final class Running implements AutoCloseable {
        final EmbeddedBroker broker;
        final String startedBy;
        private JMSContext connection;

        Running(EmbeddedBroker broker, String startedBy) {
            this.broker = broker;
            this.startedBy = startedBy;
        }

        /** A new session on the shared connection, which is opened on first use. */
        synchronized JMSContext session() {
            if (connection == null) {
                connection = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress()).createContext();
            }
            return connection.createContext(JMSContext.AUTO_ACKNOWLEDGE);
        }

        @Override
        public synchronized void close() {
            try {
                if (connection != null) {
                    connection.close();
                }
            } finally {
                broker.close();
            }
        }
    }
}
