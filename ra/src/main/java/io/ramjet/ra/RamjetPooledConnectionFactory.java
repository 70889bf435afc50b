package io.ramjet.ra;

import io.ramjet.provider.jms.RuntimeExceptions;
import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueConnectionFactory;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicConnectionFactory;
import jakarta.resource.Referenceable;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import java.io.Serializable;
import javax.naming.Reference;

/**
 * The connection factory an application finds in JNDI or has injected: every connection comes
 * from the application server's pool (through its connection manager), enlisted in the caller's
 * transaction. A context ({@code createContext}) is a pooled connection and its one session
 * ({@link ContextHandle}); its session mode is the container's to decide, as for
 * {@code createSession}.
 */
final class RamjetPooledConnectionFactory implements QueueConnectionFactory, TopicConnectionFactory, Serializable,
        Referenceable {

    private static final long serialVersionUID = 1L;

    private final RamjetManagedConnectionFactory factory;
    private final transient ConnectionManager manager;
    private Reference reference;

    RamjetPooledConnectionFactory(RamjetManagedConnectionFactory factory, ConnectionManager manager) {
        this.factory = factory;
        this.manager = manager;
    }

    @Override
    public Connection createConnection() throws JMSException {
        return allocate(RequestCredentials.FACTORY_DEFAULT);
    }

    @Override
    public Connection createConnection(String userName, String password) throws JMSException {
        return allocate(new RequestCredentials(userName, password));
    }

    @Override
    public QueueConnection createQueueConnection() throws JMSException {
        return allocate(RequestCredentials.FACTORY_DEFAULT);
    }

    @Override
    public QueueConnection createQueueConnection(String userName, String password) throws JMSException {
        return allocate(new RequestCredentials(userName, password));
    }

    @Override
    public TopicConnection createTopicConnection() throws JMSException {
        return allocate(RequestCredentials.FACTORY_DEFAULT);
    }

    @Override
    public TopicConnection createTopicConnection(String userName, String password) throws JMSException {
        return allocate(new RequestCredentials(userName, password));
    }

    private ConnectionHandle allocate(RequestCredentials credentials) throws JMSException {
        try {
            return (ConnectionHandle) manager.allocateConnection(factory, credentials);
        } catch (ResourceException e) {
            JMSException failure = new JMSException("no pooled connection to " + factory.settings(credentials)
                    + ": " + e.getMessage());
            failure.setLinkedException(e);
            failure.initCause(e);
            throw failure;
        }
    }

    @Override
    public JMSContext createContext() {
        return context(RequestCredentials.FACTORY_DEFAULT);
    }

    @Override
    public JMSContext createContext(String userName, String password) {
        return context(new RequestCredentials(userName, password));
    }

    @Override
    public JMSContext createContext(String userName, String password, int sessionMode) {
        return context(new RequestCredentials(userName, password));
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        return context(RequestCredentials.FACTORY_DEFAULT);
    }

    private JMSContext context(RequestCredentials credentials) {
        try {
            return new ContextHandle(allocate(credentials));
        } catch (JMSException e) {
            throw RuntimeExceptions.of(e);
        }
    }

    @Override
    public void setReference(Reference reference) {
        this.reference = reference;
    }

    @Override
    public Reference getReference() {
        return reference;
    }
}
