package io.ramjet.tck;

import jakarta.jms.ConnectionFactory;

/**
 * The one seam between the conformance tests and a JMS provider: how to start and stop its
 * broker and how to get a {@link ConnectionFactory}. Everything else a test does goes through
 * {@code jakarta.jms} only. Destinations are made with {@code Session.createQueue/createTopic},
 * which both providers accept for any name.
 */
public interface ProviderUnderTest extends AutoCloseable {

    /** The one user each provider's broker knows, with {@link #PASSWORD}; connections without credentials are allowed too. */
    String USER = "tck";
    String PASSWORD = "tck-password";
    /** A user who may consume and browse (and make temporary destinations) but not send or create durable subscriptions. */
    String READER = "tck-reader";
    String READER_PASSWORD = "tck-reader-password";

    /** The name the report shows: "Ramjet" or "Artemis". */
    String name();

    void start() throws Exception;

    ConnectionFactory connectionFactory();

    @Override
    void close() throws Exception;
}
