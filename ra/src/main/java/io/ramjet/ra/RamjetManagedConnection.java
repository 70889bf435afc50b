package io.ramjet.ra;

import jakarta.jms.JMSException;
import jakarta.jms.Session;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.IllegalStateException;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionMetaData;
import jakarta.resource.spi.ResourceAdapterInternalException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.security.auth.Subject;
import javax.transaction.xa.XAResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pooled physical connection to Ramjet: an XA connection and its one XA session, shared by
 * the application's handles ({@link ConnectionHandle}) one transaction at a time. In a global
 * transaction the session's work is the transaction's branch; in a container-managed local
 * transaction a transacted session of the same connection is used; with neither, the XA session
 * acknowledges and sends as AUTO_ACKNOWLEDGE does. A failure reported by the connection marks it
 * unusable and tells the pool, which replaces it: that is how the pool recovers from a broker
 * restart.
 */
final class RamjetManagedConnection implements ManagedConnection {

    private static final Logger LOG = LoggerFactory.getLogger(RamjetManagedConnection.class);

    private final RamjetManagedConnectionFactory factory;
    private final RequestCredentials credentials;
    private final XAConnection connection;
    private final XASession xaSession;
    private final EnlistmentTracker xaResource;
    private final List<ConnectionEventListener> listeners = new CopyOnWriteArrayList<>();
    private final List<ConnectionHandle> handles = new CopyOnWriteArrayList<>();
    private volatile boolean broken;
    private volatile boolean destroyed;
    private boolean localTransaction;
    private Session localSession;
    private PrintWriter logWriter;

    private RamjetManagedConnection(RamjetManagedConnectionFactory factory, RequestCredentials credentials,
                                    XAConnection connection, XASession xaSession, ConnectionSettings settings) {
        this.factory = factory;
        this.credentials = credentials;
        this.connection = connection;
        this.xaSession = xaSession;
        this.xaResource = new EnlistmentTracker(new CompletingXAResource(xaSession.getXAResource(), settings));
    }

    static RamjetManagedConnection open(RamjetManagedConnectionFactory factory, RequestCredentials credentials)
            throws ResourceException {
        ConnectionSettings settings = factory.settings(credentials);
        XAConnection connection = null;
        try {
            connection = settings.openXA(factory.resourceManager(settings));
            if (factory.getClientId() != null && !factory.getClientId().isBlank()) {
                connection.setClientID(factory.getClientId());
            }
            RamjetManagedConnection managed = new RamjetManagedConnection(factory, credentials, connection,
                    connection.createXASession(), settings);
            connection.setExceptionListener(managed::failed);
            return managed;
        } catch (JMSException e) {
            if (connection != null) {
                RamjetResourceAdapter.closeQuietly(connection);
            }
            throw new ResourceAdapterInternalException("cannot connect to " + settings, e);
        }
    }

    RamjetManagedConnectionFactory factory() {
        return factory;
    }

    RequestCredentials credentials() {
        return credentials;
    }

    XAConnection physicalConnection() {
        return connection;
    }

    boolean isUsable() {
        return !broken && !destroyed;
    }

    boolean inGlobalTransaction() {
        return xaResource.isAssociated();
    }

    synchronized boolean inLocalTransaction() {
        return localTransaction;
    }

    /** The session a handle created now works on. */
    synchronized Session physicalSession() throws JMSException {
        if (!localTransaction) {
            return xaSession;
        }
        if (localSession == null) {
            localSession = connection.createSession(Session.SESSION_TRANSACTED);
        }
        return localSession;
    }

    synchronized void beginLocalTransaction() throws ResourceException {
        if (inGlobalTransaction()) {
            throw new IllegalStateException("a local transaction cannot begin inside a global one");
        }
        localTransaction = true;
    }

    synchronized void endLocalTransaction(boolean commit) throws JMSException {
        localTransaction = false;
        if (localSession != null) {
            if (commit) {
                localSession.commit();
            } else {
                localSession.rollback();
            }
        }
    }

    @Override
    public Object getConnection(Subject subject, ConnectionRequestInfo info) throws ResourceException {
        if (destroyed) {
            throw new IllegalStateException("this managed connection is destroyed");
        }
        ConnectionHandle handle = new ConnectionHandle(this);
        handles.add(handle);
        return handle;
    }

    @Override
    public void associateConnection(Object handle) throws ResourceException {
        if (!(handle instanceof ConnectionHandle h)) {
            throw new IllegalStateException("not a Ramjet connection handle: " + handle);
        }
        h.reassign(this);
        handles.add(h);
    }

    void detach(ConnectionHandle handle) {
        handles.remove(handle);
    }

    /** An application closed a handle: the pool may take the connection back. */
    void handleClosed(ConnectionHandle handle) {
        handles.remove(handle);
        ConnectionEvent event = new ConnectionEvent(this, ConnectionEvent.CONNECTION_CLOSED);
        event.setConnectionHandle(handle);
        listeners.forEach(l -> l.connectionClosed(event));
    }

    private void failed(JMSException e) {
        if (broken || destroyed) {
            return;
        }
        broken = true;
        LOG.warn("pooled connection to {} failed; the pool will replace it: {}", factory.settings(credentials),
                e.toString());
        ConnectionEvent event = new ConnectionEvent(this, ConnectionEvent.CONNECTION_ERROR_OCCURRED, e);
        listeners.forEach(l -> l.connectionErrorOccurred(event));
    }

    @Override
    public void cleanup() throws ResourceException {
        for (ConnectionHandle handle : handles) {
            handle.invalidate();
        }
        handles.clear();
        synchronized (this) {
            localTransaction = false;
            if (localSession != null) {
                RamjetResourceAdapter.closeQuietly(localSession);
                localSession = null;
            }
        }
        if (!broken) {
            try {
                connection.stop();
            } catch (JMSException e) {
                failed(e);
            }
        }
    }

    @Override
    public void destroy() throws ResourceException {
        if (destroyed) {
            return;
        }
        cleanup();
        destroyed = true;
        RamjetResourceAdapter.closeQuietly(connection);
    }

    @Override
    public void addConnectionEventListener(ConnectionEventListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeConnectionEventListener(ConnectionEventListener listener) {
        listeners.remove(listener);
    }

    @Override
    public XAResource getXAResource() {
        return xaResource;
    }

    @Override
    public LocalTransaction getLocalTransaction() {
        return new ManagedLocalTransaction(this);
    }

    @Override
    public ManagedConnectionMetaData getMetaData() {
        return new ManagedConnectionMetaData() {
            @Override
            public String getEISProductName() {
                return "Ramjet";
            }

            @Override
            public String getEISProductVersion() throws ResourceException {
                try {
                    return connection.getMetaData().getProviderVersion();
                } catch (JMSException e) {
                    throw new ResourceAdapterInternalException("no connection metadata", e);
                }
            }

            @Override
            public int getMaxConnections() {
                return 0;
            }

            @Override
            public String getUserName() {
                return factory.settings(credentials).userName();
            }
        };
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }
}
