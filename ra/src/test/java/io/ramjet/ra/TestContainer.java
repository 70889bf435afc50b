package io.ramjet.ra;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.resource.spi.XATerminator;
import jakarta.resource.spi.work.ExecutionContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkListener;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Timer;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The part of an application server the adapter talks to, as small as the tests need: a work
 * manager running each work on a thread of its own, and a connection manager with a pool that
 * enlists a connection's XA resource in the caller's JTA transaction (Narayana's) and takes the
 * connection back when the application closes it, or drops it when it fails.
 */
final class TestContainer implements BootstrapContext, WorkManager, ConnectionManager, ConnectionEventListener {

    private static final long serialVersionUID = 1L;

    private final transient TransactionManager transactions;
    private final transient Set<ManagedConnection> idle = new HashSet<>();
    final transient List<ManagedConnection> created = new CopyOnWriteArrayList<>();
    final transient List<ManagedConnection> failed = new CopyOnWriteArrayList<>();
    private final transient List<Thread> threads = new CopyOnWriteArrayList<>();

    TestContainer(TransactionManager transactions) {
        this.transactions = transactions;
    }

    @Override
    public synchronized Object allocateConnection(ManagedConnectionFactory factory, ConnectionRequestInfo info)
            throws ResourceException {
        ManagedConnection connection = factory.matchManagedConnections(idle, null, info);
        if (connection == null) {
            connection = factory.createManagedConnection(null, info);
            connection.addConnectionEventListener(this);
            created.add(connection);
        } else {
            idle.remove(connection);
        }
        enlist(connection);
        return connection.getConnection(null, info);
    }

    private void enlist(ManagedConnection connection) throws ResourceException {
        try {
            if (transactions != null && transactions.getStatus() == Status.STATUS_ACTIVE) {
                transactions.getTransaction().enlistResource(connection.getXAResource());
            }
        } catch (Exception e) {
            throw new ResourceException("cannot enlist", e);
        }
    }

    @Override
    public synchronized void connectionClosed(ConnectionEvent event) {
        ManagedConnection connection = (ManagedConnection) event.getSource();
        try {
            if (transactions != null && transactions.getStatus() == Status.STATUS_ACTIVE) {
                transactions.getTransaction().delistResource(connection.getXAResource(),
                        javax.transaction.xa.XAResource.TMSUCCESS);
            }
            connection.cleanup();
            idle.add(connection);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public synchronized void connectionErrorOccurred(ConnectionEvent event) {
        ManagedConnection connection = (ManagedConnection) event.getSource();
        idle.remove(connection);
        failed.add(connection);
    }

    @Override
    public void localTransactionStarted(ConnectionEvent event) {
    }

    @Override
    public void localTransactionCommitted(ConnectionEvent event) {
    }

    @Override
    public void localTransactionRolledback(ConnectionEvent event) {
    }

    @Override
    public WorkManager getWorkManager() {
        return this;
    }

    @Override
    public XATerminator getXATerminator() {
        return null;
    }

    @Override
    public Timer createTimer() {
        return new Timer(true);
    }

    @Override
    public boolean isContextSupported(Class<? extends WorkContext> workContextClass) {
        return false;
    }

    @Override
    public TransactionSynchronizationRegistry getTransactionSynchronizationRegistry() {
        return null;
    }

    @Override
    public void doWork(Work work) {
        work.run();
    }

    @Override
    public void doWork(Work work, long startTimeout, ExecutionContext context, WorkListener listener) {
        work.run();
    }

    @Override
    public long startWork(Work work) {
        scheduleWork(work);
        return 0;
    }

    @Override
    public long startWork(Work work, long startTimeout, ExecutionContext context, WorkListener listener) {
        scheduleWork(work);
        return 0;
    }

    @Override
    public void scheduleWork(Work work) {
        Thread thread = new Thread(work, "test-work-" + threads.size());
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    @Override
    public void scheduleWork(Work work, long startTimeout, ExecutionContext context, WorkListener listener) {
        scheduleWork(work);
    }
}
