package io.ramjet.ra;

import static io.ramjet.provider.jms.RuntimeExceptions.unchecked;
import static io.ramjet.provider.jms.RuntimeExceptions.uncheckedRun;

import io.ramjet.provider.jms.RuntimeExceptions;
import io.ramjet.provider.jms.SimplifiedApi;
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
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.io.Serializable;

/**
 * The {@link JMSContext} an application gets from a pooled connection factory, and the one the
 * container wraps for {@code @Inject JMSContext}: a {@link ConnectionHandle} and its one
 * {@link SessionHandle}, so the connection comes from the pool enlisted in the caller's transaction
 * and the section 12 rules of Jakarta Messaging 3.1 hold as they do for the classic API. In a
 * transaction the session is the transaction's and {@code commit}, {@code rollback} and
 * {@code recover} are refused; outside one it acknowledges automatically, whatever session mode
 * was asked. {@code setClientID}, {@code setExceptionListener}, {@code stop} and a second context
 * from this one ({@code createContext}) are refused with
 * {@code IllegalStateRuntimeException}. Closing it gives the connection back to the pool; the
 * container closes an injected context at the end of its scope.
 */
final class ContextHandle implements JMSContext {

    private final ConnectionHandle connection;
    private final SessionHandle session;
    private volatile boolean autoStart = true;
    private volatile boolean closed;
    private MessageProducer producer;

    ContextHandle(ConnectionHandle connection) {
        this.connection = connection;
        try {
            this.session = (SessionHandle) connection.createSession();
        } catch (JMSException e) {
            closeQuietly(connection);
            throw RuntimeExceptions.of(e);
        }
    }

    private static void closeQuietly(ConnectionHandle connection) {
        try {
            connection.close();
        } catch (JMSException ignored) {
            // the failure to open the session is the one to report
        }
    }

    private SessionHandle session() {
        if (closed) {
            throw new IllegalStateRuntimeException("the context is closed");
        }
        return session;
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        session();
        throw new IllegalStateRuntimeException(
                "a context in a Jakarta EE container cannot make another: ask the connection factory");
    }

    // ---- connection

    @Override
    public String getClientID() {
        session();
        return unchecked(connection::getClientID);
    }

    @Override
    public void setClientID(String clientID) {
        session();
        uncheckedRun(() -> connection.setClientID(clientID));
    }

    @Override
    public ConnectionMetaData getMetaData() {
        session();
        return unchecked(connection::getMetaData);
    }

    @Override
    public ExceptionListener getExceptionListener() {
        session();
        return unchecked(connection::getExceptionListener);
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) {
        session();
        uncheckedRun(() -> connection.setExceptionListener(listener));
    }

    @Override
    public void start() {
        session();
        uncheckedRun(connection::start);
    }

    @Override
    public void stop() {
        session();
        uncheckedRun(connection::stop);
    }

    @Override
    public void setAutoStart(boolean autoStart) {
        session();
        this.autoStart = autoStart;
    }

    @Override
    public boolean getAutoStart() {
        session();
        return autoStart;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        session.closeHandle();
        uncheckedRun(connection::close);
    }

    // ---- messages

    @Override
    public BytesMessage createBytesMessage() {
        return unchecked(session()::createBytesMessage);
    }

    @Override
    public MapMessage createMapMessage() {
        return unchecked(session()::createMapMessage);
    }

    @Override
    public Message createMessage() {
        return unchecked(session()::createMessage);
    }

    @Override
    public ObjectMessage createObjectMessage() {
        return unchecked(() -> session().createObjectMessage());
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) {
        return unchecked(() -> session().createObjectMessage(object));
    }

    @Override
    public StreamMessage createStreamMessage() {
        return unchecked(session()::createStreamMessage);
    }

    @Override
    public TextMessage createTextMessage() {
        return unchecked(() -> session().createTextMessage());
    }

    @Override
    public TextMessage createTextMessage(String text) {
        return unchecked(() -> session().createTextMessage(text));
    }

    // ---- session

    @Override
    public boolean getTransacted() {
        return unchecked(session()::getTransacted);
    }

    @Override
    public int getSessionMode() {
        return unchecked(session()::getAcknowledgeMode);
    }

    @Override
    public void commit() {
        uncheckedRun(session()::commit);
    }

    @Override
    public void rollback() {
        uncheckedRun(session()::rollback);
    }

    @Override
    public void recover() {
        uncheckedRun(session()::recover);
    }

    /** A no-op: the session is never in CLIENT_ACKNOWLEDGE mode here. */
    @Override
    public void acknowledge() {
        session();
    }

    @Override
    public synchronized JMSProducer createProducer() {
        SessionHandle s = session();
        if (producer == null) {
            producer = unchecked(() -> s.createProducer(null));
        }
        return SimplifiedApi.producer(this, producer);
    }

    @Override
    public JMSConsumer createConsumer(Destination destination) {
        return consumer(() -> session().createConsumer(destination));
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector) {
        return consumer(() -> session().createConsumer(destination, messageSelector));
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal) {
        return consumer(() -> session().createConsumer(destination, messageSelector, noLocal));
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) {
        return consumer(() -> session().createSharedConsumer(topic, sharedSubscriptionName));
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector) {
        return consumer(() -> session().createSharedConsumer(topic, sharedSubscriptionName, messageSelector));
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name) {
        return consumer(() -> session().createDurableConsumer(topic, name));
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal) {
        return consumer(() -> session().createDurableConsumer(topic, name, messageSelector, noLocal));
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name) {
        return consumer(() -> session().createSharedDurableConsumer(topic, name));
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector) {
        return consumer(() -> session().createSharedDurableConsumer(topic, name, messageSelector));
    }

    private JMSConsumer consumer(RuntimeExceptions.JmsCall<MessageConsumer> create) {
        JMSConsumer consumer = SimplifiedApi.consumer(unchecked(create));
        if (autoStart) {
            start();
        }
        return consumer;
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) {
        return unchecked(() -> session().createBrowser(queue));
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) {
        return unchecked(() -> session().createBrowser(queue, messageSelector));
    }

    @Override
    public Queue createQueue(String queueName) {
        return unchecked(() -> session().createQueue(queueName));
    }

    @Override
    public Topic createTopic(String topicName) {
        return unchecked(() -> session().createTopic(topicName));
    }

    @Override
    public TemporaryQueue createTemporaryQueue() {
        return unchecked(session()::createTemporaryQueue);
    }

    @Override
    public TemporaryTopic createTemporaryTopic() {
        return unchecked(session()::createTemporaryTopic);
    }

    @Override
    public void unsubscribe(String name) {
        uncheckedRun(() -> session().unsubscribe(name));
    }
}
