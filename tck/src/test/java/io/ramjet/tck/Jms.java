package io.ramjet.tck;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a conformance test gets: its provider's factory, destinations with names unique to the
 * test, and connections and contexts that are closed after it.
 */
public final class Jms implements AutoCloseable {

    /** How long a receive waits for a message that must arrive. */
    public static final long RECEIVE_MS = 5_000;
    /** How long a receive waits to show that a message does not arrive. */
    public static final long ABSENT_MS = 200;

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final ProviderUnderTest provider;
    private final String prefix;
    private final List<AutoCloseable> opened = new ArrayList<>();

    Jms(ProviderUnderTest provider, String testName) {
        this.provider = provider;
        this.prefix = testName + "-" + SEQUENCE.incrementAndGet();
    }

    @Override
    public String toString() {
        return provider.name();
    }

    public String providerName() {
        return provider.name();
    }

    /**
     * Skips the rest of a test on Artemis where Artemis deviates from the specification; the
     * reason names the spec section so the test stays a statement of the spec.
     */
    public void skipOnArtemis(String deviation) {
        org.junit.jupiter.api.Assumptions.assumeFalse(provider.name().equals("Artemis"), deviation);
    }

    public ConnectionFactory factory() {
        return provider.connectionFactory();
    }

    /** A started connection, closed after the test. */
    public Connection connection() throws JMSException {
        Connection c = factory().createConnection();
        opened.add(c);
        c.start();
        return c;
    }

    public Session session() throws JMSException {
        return connection().createSession(false, Session.AUTO_ACKNOWLEDGE);
    }

    public JMSContext context() {
        return context(JMSContext.AUTO_ACKNOWLEDGE);
    }

    public JMSContext context(int sessionMode) {
        JMSContext c = factory().createContext(sessionMode);
        opened.add(c);
        return c;
    }

    /** A destination name unique to this test and run. */
    public String name(String suffix) {
        return prefix + "-" + suffix;
    }

    public Queue queue(Session session, String suffix) throws JMSException {
        return session.createQueue(name(suffix));
    }

    public Topic topic(Session session, String suffix) throws JMSException {
        return session.createTopic(name(suffix));
    }

    /** Registers something else for closing after the test. */
    public <T extends AutoCloseable> T closeLater(T resource) {
        opened.add(resource);
        return resource;
    }

    @Override
    public void close() {
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception ignored) {
                // a test may have closed it already, or closing is what it tested
            }
        }
        opened.clear();
    }
}
