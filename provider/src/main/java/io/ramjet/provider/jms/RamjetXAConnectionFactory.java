package io.ramjet.provider.jms;

import jakarta.jms.JMSException;
import jakarta.jms.XAConnection;
import jakarta.jms.XAConnectionFactory;
import jakarta.jms.XAJMSContext;
import jakarta.jms.XAQueueConnection;
import jakarta.jms.XAQueueConnectionFactory;
import jakarta.jms.XATopicConnection;
import jakarta.jms.XATopicConnectionFactory;

/**
 * A connection factory that also makes XA connections and XA contexts, for a transaction
 * manager. Same URL and options as {@link RamjetConnectionFactory}.
 */
public class RamjetXAConnectionFactory extends RamjetConnectionFactory
        implements XAConnectionFactory, XAQueueConnectionFactory, XATopicConnectionFactory {

    private static final long serialVersionUID = 1L;

    public RamjetXAConnectionFactory() {
        super();
    }

    public RamjetXAConnectionFactory(String url) {
        super(url);
    }

    @Override
    public XAConnection createXAConnection() throws JMSException {
        return createXAConnection(null, null);
    }

    @Override
    public XAConnection createXAConnection(String userName, String password) throws JMSException {
        return open(userName, password, RamjetXAConnection::new);
    }

    /**
     * An XA connection whose XAResources are one resource manager with those of every other
     * connection of the same user opened with {@code resourceManager} (see {@link XaResourceManager}).
     *
     * @throws IllegalArgumentException when {@code resourceManager} is for another URL
     */
    public XAConnection createXAConnection(String userName, String password, XaResourceManager resourceManager)
            throws JMSException {
        if (!resourceManager.url().equals(getUrl())) {
            throw new IllegalArgumentException(resourceManager + " is not for " + getUrl());
        }
        return open(userName, password, (info, client) -> new RamjetXAConnection(info, client, resourceManager));
    }

    @Override
    public XAQueueConnection createXAQueueConnection() throws JMSException {
        return open(null, null, RamjetXAConnection::new);
    }

    @Override
    public XAQueueConnection createXAQueueConnection(String userName, String password) throws JMSException {
        return open(userName, password, RamjetXAConnection::new);
    }

    @Override
    public XATopicConnection createXATopicConnection() throws JMSException {
        return open(null, null, RamjetXAConnection::new);
    }

    @Override
    public XATopicConnection createXATopicConnection(String userName, String password) throws JMSException {
        return open(userName, password, RamjetXAConnection::new);
    }

    @Override
    public XAJMSContext createXAContext() {
        return createXAContext(null, null);
    }

    @Override
    public XAJMSContext createXAContext(String userName, String password) {
        return RamjetXAJMSContext.open(RuntimeExceptions.unchecked(
                () -> open(userName, password, RamjetXAConnection::new)));
    }

    @Override
    public String toString() {
        return "RamjetXAConnectionFactory[" + getUrl() + "]";
    }
}
