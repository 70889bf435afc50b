package io.ramjet.ra;

import jakarta.jms.ConnectionConsumer;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueSession;
import jakarta.jms.ServerSessionPool;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicSession;

/**
 * The connection an application gets from a pooled connection factory: a handle on a
 * {@link RamjetManagedConnection}. Jakarta Messaging 3.1 section 12 rules for the web and EJB
 * containers apply: one active session per connection; {@code setClientID},
 * {@code setExceptionListener}, {@code stop} and the connection consumers are refused with
 * {@code IllegalStateException}. Closing it closes its session and gives the physical connection
 * back to the pool.
 */
final class ConnectionHandle implements QueueConnection, TopicConnection {

    private volatile RamjetManagedConnection managed;
    private volatile boolean closed;
    private SessionHandle session;

    ConnectionHandle(RamjetManagedConnection managed) {
        this.managed = managed;
    }

    /** The pool moved this handle to another physical connection. */
    synchronized void reassign(RamjetManagedConnection other) {
        managed.detach(this);
        managed = other;
    }

    /** The pool took the physical connection back: this handle is closed for good. */
    synchronized void invalidate() {
        closeSession();
        closed = true;
    }

    private RamjetManagedConnection managed() throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException("connection is closed");
        }
        return managed;
    }

    @Override
    public Session createSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return openSession();
    }

    @Override
    public Session createSession(int sessionMode) throws JMSException {
        return openSession();
    }

    @Override
    public Session createSession() throws JMSException {
        return openSession();
    }

    @Override
    public QueueSession createQueueSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return openSession();
    }

    @Override
    public TopicSession createTopicSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return openSession();
    }

    /**
     * The arguments of every {@code createSession} are ignored: in a global transaction the
     * session is the transaction's, in a container local transaction it is transacted, and
     * otherwise it acknowledges automatically (what section 12 allows the container to do).
     */
    private synchronized SessionHandle openSession() throws JMSException {
        RamjetManagedConnection physical = managed();
        if (session != null && !session.isClosed()) {
            throw new IllegalStateException(
                    "a connection in a Jakarta EE container may have only one active session");
        }
        session = new SessionHandle(physical, physical.physicalSession());
        return session;
    }

    @Override
    public String getClientID() throws JMSException {
        return managed().physicalConnection().getClientID();
    }

    @Override
    public void setClientID(String clientID) throws JMSException {
        managed();
        throw new IllegalStateException("the client id of a pooled connection is set on its connection factory");
    }

    @Override
    public ConnectionMetaData getMetaData() throws JMSException {
        return managed().physicalConnection().getMetaData();
    }

    @Override
    public ExceptionListener getExceptionListener() throws JMSException {
        managed();
        return null;
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) throws JMSException {
        managed();
        throw new IllegalStateException("setExceptionListener is not allowed in a Jakarta EE container");
    }

    @Override
    public void start() throws JMSException {
        managed().physicalConnection().start();
    }

    @Override
    public void stop() throws JMSException {
        managed();
        throw new IllegalStateException("stop is not allowed in a Jakarta EE container");
    }

    @Override
    public void close() throws JMSException {
        RamjetManagedConnection physical;
        synchronized (this) {
            if (closed) {
                return;
            }
            closeSession();
            closed = true;
            physical = managed;
        }
        physical.handleClosed(this);
    }

    private void closeSession() {
        if (session != null) {
            session.closeHandle();
            session = null;
        }
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(Destination destination, String selector,
                                                       ServerSessionPool pool, int maxMessages) throws JMSException {
        throw noConnectionConsumer();
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(Queue queue, String selector, ServerSessionPool pool,
                                                       int maxMessages) throws JMSException {
        throw noConnectionConsumer();
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(Topic topic, String selector, ServerSessionPool pool,
                                                       int maxMessages) throws JMSException {
        throw noConnectionConsumer();
    }

    @Override
    public ConnectionConsumer createSharedConnectionConsumer(Topic topic, String subscriptionName, String selector,
                                                             ServerSessionPool pool, int maxMessages)
            throws JMSException {
        throw noConnectionConsumer();
    }

    @Override
    public ConnectionConsumer createDurableConnectionConsumer(Topic topic, String subscriptionName, String selector,
                                                              ServerSessionPool pool, int maxMessages)
            throws JMSException {
        throw noConnectionConsumer();
    }

    @Override
    public ConnectionConsumer createSharedDurableConnectionConsumer(Topic topic, String subscriptionName,
                                                                    String selector, ServerSessionPool pool,
                                                                    int maxMessages) throws JMSException {
        throw noConnectionConsumer();
    }

    private IllegalStateException noConnectionConsumer() throws IllegalStateException {
        managed();
        return new IllegalStateException("connection consumers are not allowed in a Jakarta EE container");
    }
}
