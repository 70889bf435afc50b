package io.ramjet.provider.jms;

import static io.ramjet.provider.jms.RuntimeExceptions.unchecked;
import static io.ramjet.provider.jms.RuntimeExceptions.uncheckedRun;

import jakarta.jms.BytesMessage;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.io.Serializable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The simplified API: one session over a connection that contexts made by
 * {@link #createContext(int)} share; the connection closes with the last of them. The
 * connection starts on the first consumer when auto-start is on (the default).
 */
class RamjetJMSContext implements JMSContext {

    /** The connection shared by a context and those created from it. */
    static final class SharedConnection {
        final RamjetConnection connection;
        final AtomicInteger users = new AtomicInteger(1);

        SharedConnection(RamjetConnection connection) {
            this.connection = connection;
        }
    }

    private final SharedConnection shared;
    private final RamjetSession session;
    private final int sessionMode;
    private volatile boolean autoStart = true;
    private volatile boolean closed;
    private volatile RamjetMessageProducer producer;

    static RamjetJMSContext open(RamjetConnection connection, int sessionMode) {
        return open(connection, shared -> new RamjetJMSContext(shared, sessionMode));
    }

    /** A context made by {@code create} over a new connection, which is closed if that fails. */
    static <C extends RamjetJMSContext> C open(RamjetConnection connection, Function<SharedConnection, C> create) {
        try {
            return create.apply(new SharedConnection(connection));
        } catch (RuntimeException e) {
            try {
                connection.close();
            } catch (JMSException ignored) {
                // the original failure is the one to report
            }
            throw e;
        }
    }

    private RamjetJMSContext(SharedConnection shared, int sessionMode) {
        this(shared, sessionMode, unchecked(() -> shared.connection.createContextSession(sessionMode)));
    }

    RamjetJMSContext(SharedConnection shared, int sessionMode, RamjetSession session) {
        this.shared = shared;
        this.sessionMode = sessionMode;
        this.session = session;
    }

    RamjetSession session() {
        return session;
    }

    /**
     * The session, for any action but setting the client id: the first one fixes the client id,
     * which may be set right after the context is created and before anything else (3.1, 6.1.2).
     */
    private RamjetSession used() {
        shared.connection.fixClientId();
        return session;
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        checkOpen();
        shared.users.incrementAndGet();
        try {
            return new RamjetJMSContext(shared, sessionMode);
        } catch (RuntimeException e) {
            shared.users.decrementAndGet();
            throw e;
        }
    }

    // ---- connection

    @Override
    public String getClientID() {
        return unchecked(shared.connection::getClientID);
    }

    @Override
    public void setClientID(String clientID) {
        uncheckedRun(() -> shared.connection.setClientID(clientID));
    }

    @Override
    public ConnectionMetaData getMetaData() {
        return unchecked(shared.connection::getMetaData);
    }

    @Override
    public ExceptionListener getExceptionListener() {
        return unchecked(shared.connection::getExceptionListener);
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) {
        uncheckedRun(() -> shared.connection.setExceptionListener(listener));
    }

    @Override
    public void start() {
        uncheckedRun(shared.connection::start);
    }

    @Override
    public void stop() {
        uncheckedRun(shared.connection::stop);
    }

    @Override
    public void setAutoStart(boolean autoStart) {
        checkOpen();
        this.autoStart = autoStart;
    }

    @Override
    public boolean getAutoStart() {
        checkOpen();
        return autoStart;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (session.thread().isCurrent()) {
            throw new IllegalStateRuntimeException("a message listener must not close its own context");
        }
        closed = true;
        uncheckedRun(session::close);
        if (shared.users.decrementAndGet() == 0) {
            uncheckedRun(shared.connection::close);
        }
    }

    // ---- messages

    @Override
    public BytesMessage createBytesMessage() {
        return unchecked(used()::createBytesMessage);
    }

    @Override
    public MapMessage createMapMessage() {
        return unchecked(used()::createMapMessage);
    }

    @Override
    public Message createMessage() {
        return unchecked(used()::createMessage);
    }

    @Override
    public ObjectMessage createObjectMessage() {
        return unchecked(() -> used().createObjectMessage());
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) {
        return unchecked(() -> used().createObjectMessage(object));
    }

    @Override
    public StreamMessage createStreamMessage() {
        return unchecked(used()::createStreamMessage);
    }

    @Override
    public TextMessage createTextMessage() {
        return unchecked(() -> used().createTextMessage());
    }

    @Override
    public TextMessage createTextMessage(String text) {
        return unchecked(() -> used().createTextMessage(text));
    }

    // ---- session

    @Override
    public boolean getTransacted() {
        return unchecked(used()::getTransacted);
    }

    @Override
    public int getSessionMode() {
        checkOpen();
        return sessionMode;
    }

    @Override
    public void commit() {
        uncheckedRun(used()::commit);
    }

    @Override
    public void rollback() {
        uncheckedRun(used()::rollback);
    }

    @Override
    public void recover() {
        uncheckedRun(used()::recover);
    }

    @Override
    public void acknowledge() {
        checkOpen();
        if (sessionMode == Session.CLIENT_ACKNOWLEDGE) {
            uncheckedRun(used()::acknowledge);
        }
    }

    @Override
    public JMSProducer createProducer() {
        checkOpen();
        RamjetMessageProducer p = producer;
        if (p == null) {
            synchronized (this) {
                if (producer == null) {
                    producer = (RamjetMessageProducer) unchecked(() -> used().createProducer(null));
                }
                p = producer;
            }
        }
        return new RamjetJMSProducer(this, p);
    }

    @Override
    public JMSConsumer createConsumer(Destination destination) {
        return consumer(() -> used().createConsumer(destination));
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector) {
        return consumer(() -> used().createConsumer(destination, messageSelector));
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal) {
        return consumer(() -> used().createConsumer(destination, messageSelector, noLocal));
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) {
        return consumer(() -> used().createSharedConsumer(topic, sharedSubscriptionName));
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector) {
        return consumer(() -> used().createSharedConsumer(topic, sharedSubscriptionName, messageSelector));
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name) {
        return consumer(() -> used().createDurableConsumer(topic, name));
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal) {
        return consumer(() -> used().createDurableConsumer(topic, name, messageSelector, noLocal));
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name) {
        return consumer(() -> used().createSharedDurableConsumer(topic, name));
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector) {
        return consumer(() -> used().createSharedDurableConsumer(topic, name, messageSelector));
    }

    private JMSConsumer consumer(RuntimeExceptions.JmsCall<MessageConsumer> create) {
        MessageConsumer consumer = unchecked(create);
        if (autoStart) {
            start();
        }
        return new RamjetJMSConsumer((RamjetMessageConsumer) consumer);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) {
        return unchecked(() -> used().createBrowser(queue));
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) {
        return unchecked(() -> used().createBrowser(queue, messageSelector));
    }

    @Override
    public Queue createQueue(String queueName) {
        return unchecked(() -> used().createQueue(queueName));
    }

    @Override
    public Topic createTopic(String topicName) {
        return unchecked(() -> used().createTopic(topicName));
    }

    @Override
    public TemporaryQueue createTemporaryQueue() {
        return unchecked(used()::createTemporaryQueue);
    }

    @Override
    public TemporaryTopic createTemporaryTopic() {
        return unchecked(used()::createTemporaryTopic);
    }

    @Override
    public void unsubscribe(String name) {
        uncheckedRun(() -> used().unsubscribe(name));
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateRuntimeException("the context is closed");
        }
    }
}
