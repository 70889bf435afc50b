package io.ramjet.ra;

import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
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
 * transaction. The simplified API ({@code createContext}) is not offered yet.
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
        throw noContext();
    }

    @Override
    public JMSContext createContext(String userName, String password) {
        throw noContext();
    }

    @Override
    public JMSContext createContext(String userName, String password, int sessionMode) {
        throw noContext();
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        throw noContext();
    }

    private static JMSRuntimeException noContext() {
        return new JMSRuntimeException("the resource adapter's connection factory offers the classic API only");
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
