package io.ramjet.provider.jms;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.TxState;
import io.ramjet.provider.client.ChunkArrays;
import io.ramjet.provider.client.ConnectionInfo;
import io.ramjet.provider.client.RamjetClient;
import io.ramjet.provider.destination.RamjetDestination;
import io.ramjet.provider.destination.RamjetTemporaryQueue;
import io.ramjet.provider.destination.RamjetTemporaryTopic;
import io.ramjet.provider.jms.error.JmsErrors;
import io.ramjet.provider.jms.transaction.LocalTransaction;
import io.ramjet.provider.jms.transaction.NoTransaction;
import io.ramjet.provider.jms.transaction.TransactionLedger;
import io.ramjet.provider.jms.transaction.TwoPhaseCommit;
import jakarta.jms.ConnectionConsumer;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueSession;
import jakarta.jms.ServerSessionPool;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicSession;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JMS connection: one {@link RamjetClient} (so one transport connection per broker, which
 * owns this connection's temporary destinations), its sessions, its started state and client id.
 *
 * <p>A client id is claimed on the brokers ({@link RamjetClient#claimClientId}), which refuse it to
 * any other connection, in any process, while this one is open; closing gives it back. As in
 * Jakarta Messaging 3.1 (and Artemis), it may be set once, before anything else is done with the
 * connection; a refused id leaves the connection without one, so another may be tried.
 *
 * <p>It answers the brokers' transaction check-backs from its {@link TransactionLedger}, which
 * every transacted session of the connection keeps up to date.
 *
 * <p>Its exception listener is called on a thread of the connection's own
 * ({@link ExceptionReporter}), never on the thread that found the failure, so that it may stop or
 * close the connection (JMS 3.1 section 6.1.8; Spring's {@code SingleConnectionFactory} does).
 */
public class RamjetConnection implements jakarta.jms.Connection, QueueConnection, TopicConnection {

    private static final Logger LOG = LoggerFactory.getLogger(RamjetConnection.class);

    private final RamjetClient client;
    private final TransactionLedger ledger = new TransactionLedger(TransactionLedger.DEFAULT_CAPACITY);
    private final QueueChoices queueChoices = new QueueChoices();
    private final ChunkArrays chunkArrays = new ChunkArrays();
    private final TwoPhaseCommit twoPhaseCommit;
    private final ExceptionReporter exceptionReporter;
    private final ConnectionTimer timer;
    private final List<RamjetSession> sessions = new CopyOnWriteArrayList<>();
    private final Set<RamjetDestination> temporaries = ConcurrentHashMap.newKeySet();
    private final AtomicLong lastSessionId = new AtomicLong();
    private final Object stateLock = new Object();
    private volatile ConnectionInfo info;
    private volatile boolean clientIdFixed;
    private volatile boolean started;
    private volatile boolean closed;
    private volatile ExceptionListener exceptionListener;
    /** The ledger of XA branches this connection shares with others, or null. */
    private volatile TransactionLedger sharedLedger;

    /** @param client this connection's own, closed with it */
    RamjetConnection(ConnectionInfo info, RamjetClient client) {
        this.info = info;
        this.client = client;
        this.twoPhaseCommit = new TwoPhaseCommit(client, ledger);
        this.exceptionReporter = new ExceptionReporter(info.connectionId(), () -> closed ? null : exceptionListener);
        this.timer = new ConnectionTimer("ramjet-timer-" + info.connectionId());
        client.answerTransactionChecks(this::transactionState);
        client.onBrokerConnectionLost(this::brokerLost);
    }

    /**
     * A broker connection closed. The connection stays usable while another master is
     * registered: the loss is logged once and the failover rules move the sends and consumers.
     * Only when no other master is registered (or no NameServer answers) is it unusable, and the
     * ExceptionListener is told.
     */
    private void brokerLost(String address, String reason) {
        client.masterAddresses().whenComplete((masters, failure) -> {
            if (failure == null && masters.stream().anyMatch(master -> !master.equals(address))) {
                LOG.warn("connection {}: connection to broker {} lost ({}); going on with the other brokers",
                        info.connectionId(), address, reason);
            } else {
                onAsyncFailure(new JMSException("connection to broker " + address + " lost: " + reason));
            }
        });
    }

    ConnectionInfo info() {
        return info;
    }

    /** Where this connection's sessions send, per destination. */
    QueueChoices queueChoices() {
        return queueChoices;
    }

    RamjetClient client() {
        return client;
    }

    /** The arrays its consumers and browsers read chunks of large messages into. */
    ChunkArrays chunkArrays() {
        return chunkArrays;
    }

    /** The thread that runs its sessions' delayed work. */
    ConnectionTimer timer() {
        return timer;
    }

    TransactionLedger ledger() {
        return ledger;
    }

    /** Check-backs of transactions this connection's own ledger does not know are answered from {@code shared}. */
    void answerChecksAlsoFrom(TransactionLedger shared) {
        sharedLedger = shared;
    }

    private TxState transactionState(long transactionId) {
        TxState state = ledger.stateOf(transactionId);
        TransactionLedger shared = sharedLedger;
        return state == TxState.UNKNOWN && shared != null ? shared.stateOf(transactionId) : state;
    }

    TwoPhaseCommit twoPhaseCommit() {
        return twoPhaseCommit;
    }

    /** Authenticates on every live master with the connection's credentials; a refusal closes the connection. */
    void authenticate() throws JMSException {
        try {
            JmsErrors.await(client.authenticate());
        } catch (JMSException e) {
            close();
            throw e;
        }
    }

    // ---- client id

    /** The factory's client id, claimed as the connection is made; a refused one closes the connection. */
    void assignClientId(String clientId) throws JMSException {
        try {
            setClientID(clientId);
        } catch (JMSException e) {
            close();
            throw e;
        }
        clientIdFixed = true;
    }

    @Override
    public String getClientID() throws JMSException {
        checkOpen();
        return info.clientId();
    }

    @Override
    public void setClientID(String clientId) throws JMSException {
        checkOpen();
        synchronized (stateLock) {
            if (clientIdFixed || info.clientId() != null) {
                throw new IllegalStateException("the client id can be set only once, before the connection is used");
            }
            if (clientId == null || clientId.isEmpty()) {
                throw new InvalidClientIDException("a client id must not be empty");
            }
            JmsErrors.await(client.claimClientId(clientId));
            info = info.withClientId(clientId);
            clientIdFixed = true;
        }
    }

    /** The connection has been used: its client id can no longer be set. */
    void fixClientId() {
        clientIdFixed = true;
    }

    // ---- sessions

    @Override
    public Session createSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return createSession(transacted ? Session.SESSION_TRANSACTED : acknowledgeMode);
    }

    @Override
    public Session createSession(int sessionMode) throws JMSException {
        return newSession(sessionMode);
    }

    @Override
    public Session createSession() throws JMSException {
        return newSession(Session.AUTO_ACKNOWLEDGE);
    }

    @Override
    public QueueSession createQueueSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return newSession(transacted ? Session.SESSION_TRANSACTED : acknowledgeMode).limitedTo(MessagingDomain.QUEUE);
    }

    @Override
    public TopicSession createTopicSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return newSession(transacted ? Session.SESSION_TRANSACTED : acknowledgeMode).limitedTo(MessagingDomain.TOPIC);
    }

    /**
     * The session of a new JMSContext: made at once, but without fixing the client id, which the
     * context's first action does (a context's client id may be set right after its creation).
     */
    RamjetSession createContextSession(int mode) throws JMSException {
        return newSession(mode, false);
    }

    private RamjetSession newSession(int mode) throws JMSException {
        return newSession(mode, true);
    }

    private RamjetSession newSession(int mode, boolean fixesClientId) throws JMSException {
        checkOpen();
        if (fixesClientId) {
            fixClientId();
        }
        switch (mode) {
            case Session.AUTO_ACKNOWLEDGE, Session.CLIENT_ACKNOWLEDGE, Session.DUPS_OK_ACKNOWLEDGE,
                 Session.SESSION_TRANSACTED -> { }
            default -> throw new JMSException("not a session mode: " + mode);
        }
        return added(new RamjetSession(this, nextSessionId(), mode, mode == Session.SESSION_TRANSACTED
                ? new LocalTransaction(ledger, twoPhaseCommit, info.options().transactedSendsInFlight())
                : new NoTransaction(info.options().nonPersistentSendsInFlight())));
    }

    long nextSessionId() {
        return lastSessionId.incrementAndGet();
    }

    /** Registers a new session; the connection closes it on close. */
    <S extends RamjetSession> S added(S session) throws JMSException {
        checkOpen();
        sessions.add(session);
        return session;
    }

    void removed(RamjetSession session) {
        sessions.remove(session);
    }

    // ---- start / stop / close

    boolean isStarted() {
        return started;
    }

    /** Waits until the connection is started or closed, at most {@code nanos}; true when started. */
    boolean awaitStarted(long nanos) throws InterruptedException {
        if (started) {
            return true;
        }
        long deadline = System.nanoTime() + nanos;
        synchronized (stateLock) {
            while (!started && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(stateLock, left);
            }
            return started;
        }
    }

    @Override
    public void start() throws JMSException {
        checkOpen();
        fixClientId();
        synchronized (stateLock) {
            started = true;
            stateLock.notifyAll();
        }
        for (RamjetSession session : sessions) {
            session.consumers().connectionStarted();
        }
    }

    @Override
    public void stop() throws JMSException {
        checkOpen();
        fixClientId();
        for (RamjetSession session : sessions) {
            if (session.thread().runsMessageListener()) {
                throw new IllegalStateException("a message listener must not stop its own connection");
            }
        }
        started = false;
        for (RamjetSession session : sessions) {
            session.thread().awaitIdle();
        }
        for (RamjetSession session : sessions) {
            session.consumers().connectionStopped();
        }
    }

    @Override
    public void close() throws JMSException {
        checkNotInListener("close");
        synchronized (stateLock) {
            if (closed) {
                return;
            }
            closed = true;
            started = false;
            stateLock.notifyAll();
        }
        exceptionReporter.shutdown();
        for (RamjetSession session : sessions) {
            try {
                session.close();
            } catch (JMSException e) {
                LOG.warn("connection {}: a session did not close cleanly; the broker drops its consumers "
                        + "with the transport", info.connectionId(), e);
            }
        }
        timer.close();
        temporaries.clear();
        releaseClientId();
        client.close();
    }

    /**
     * Gives the client id back before the transport closes, so that a connection opened right
     * after this close may take it even before the brokers notice the closed transport.
     */
    private void releaseClientId() {
        String clientId = info.clientId();
        if (clientId == null) {
            return;
        }
        try {
            client.releaseClientId(clientId).get(info.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("connection {}: client id '{}' not given back explicitly; closing the transport does it",
                    info.connectionId(), clientId, e);
        }
    }

    private void checkNotInListener(String operation) throws IllegalStateException {
        for (RamjetSession session : sessions) {
            if (session.thread().isCurrent()) {
                throw new IllegalStateException("a message or completion listener must not " + operation
                        + " its own connection");
            }
        }
    }

    boolean isClosed() {
        return closed;
    }

    void checkOpen() throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException("the connection is closed");
        }
    }

    @Override
    public ConnectionMetaData getMetaData() throws JMSException {
        checkOpen();
        return RamjetConnectionMetaData.INSTANCE;
    }

    @Override
    public ExceptionListener getExceptionListener() throws JMSException {
        checkOpen();
        return exceptionListener;
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) throws JMSException {
        checkOpen();
        fixClientId();
        this.exceptionListener = listener;
    }

    /**
     * Tells the exception listener, if any, about a failure no call could report: later, on the
     * connection's own thread ({@link ExceptionReporter}), so any thread may report and the
     * listener may stop or close this connection.
     */
    void onAsyncFailure(JMSException failure) {
        if (!closed && exceptionListener != null) {
            exceptionReporter.report(failure);
        }
    }

    // ---- temporary destinations

    RamjetTemporaryQueue createTemporaryQueue() throws JMSException {
        checkOpen();
        RamjetTemporaryQueue queue = new RamjetTemporaryQueue(
                JmsErrors.await(client.createTemporaryDestination(DestinationKind.QUEUE)), this::deleteTemporary);
        temporaries.add(queue);
        return queue;
    }

    RamjetTemporaryTopic createTemporaryTopic() throws JMSException {
        checkOpen();
        RamjetTemporaryTopic topic = new RamjetTemporaryTopic(
                JmsErrors.await(client.createTemporaryDestination(DestinationKind.TOPIC)), this::deleteTemporary);
        temporaries.add(topic);
        return topic;
    }

    private void deleteTemporary(RamjetDestination temporary) throws JMSException {
        checkOpen();
        for (RamjetSession session : sessions) {
            if (session.consumers().consumes(temporary)) {
                throw new IllegalStateException("temporary destination " + temporary.name() + " has a consumer");
            }
        }
        if (temporaries.remove(temporary)) {
            JmsErrors.await(client.deleteDestination(temporary.name(),
                    temporary.isQueue() ? DestinationKind.QUEUE : DestinationKind.TOPIC));
        }
    }

    boolean ownsTemporary(RamjetDestination destination) {
        return temporaries.contains(destination);
    }

    // ---- application server facilities: not offered

    @Override
    public ConnectionConsumer createConnectionConsumer(Destination destination, String messageSelector,
            ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        throw noConnectionConsumers();
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(Queue queue, String messageSelector,
            ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        throw noConnectionConsumers();
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(Topic topic, String messageSelector,
            ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        throw noConnectionConsumers();
    }

    @Override
    public ConnectionConsumer createSharedConnectionConsumer(Topic topic, String subscriptionName,
            String messageSelector, ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        throw noConnectionConsumers();
    }

    @Override
    public ConnectionConsumer createDurableConnectionConsumer(Topic topic, String subscriptionName,
            String messageSelector, ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        throw noConnectionConsumers();
    }

    @Override
    public ConnectionConsumer createSharedDurableConnectionConsumer(Topic topic, String subscriptionName,
            String messageSelector, ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        throw noConnectionConsumers();
    }

    private JMSException noConnectionConsumers() throws IllegalStateException {
        checkOpen();
        return new JMSException("connection consumers (application server facilities) are not supported");
    }
}
