package io.ramjet.ra;

import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.QueueReceiver;
import jakarta.jms.QueueSender;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicPublisher;
import jakarta.jms.TopicSession;
import jakarta.jms.TopicSubscriber;
import jakarta.jms.TransactionInProgressException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The session an application gets from a {@link ConnectionHandle}: the pooled connection's
 * session, with the section 12 rules of Jakarta Messaging 3.1. {@code commit} and
 * {@code rollback} belong to the container ({@code TransactionInProgressException} in a
 * transaction, {@code IllegalStateException} outside one), and so do message listeners.
 * Closing it closes the producers, consumers and browsers it made and leaves the physical
 * session to the pool.
 */
final class SessionHandle implements QueueSession, TopicSession {

    private final RamjetManagedConnection managed;
    private final Session session;
    private final List<AutoCloseable> children = new ArrayList<>();
    private volatile boolean closed;

    SessionHandle(RamjetManagedConnection managed, Session session) {
        this.managed = managed;
        this.session = session;
    }

    boolean isClosed() {
        return closed;
    }

    synchronized void closeHandle() {
        if (closed) {
            return;
        }
        closed = true;
        children.forEach(RamjetResourceAdapter::closeQuietly);
        children.clear();
    }

    private Session session() throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException("session is closed");
        }
        return session;
    }

    private synchronized <T extends AutoCloseable> T child(T child) {
        children.add(child);
        return child;
    }

    private boolean inTransaction() {
        return managed.inGlobalTransaction() || managed.inLocalTransaction();
    }

    @Override
    public void close() {
        closeHandle();
    }

    @Override
    public boolean getTransacted() throws JMSException {
        session();
        return inTransaction();
    }

    @Override
    public int getAcknowledgeMode() throws JMSException {
        session();
        return inTransaction() ? Session.SESSION_TRANSACTED : Session.AUTO_ACKNOWLEDGE;
    }

    @Override
    public void commit() throws JMSException {
        session();
        throw containerOwnsTransactions("commit");
    }

    @Override
    public void rollback() throws JMSException {
        session();
        throw containerOwnsTransactions("rollback");
    }

    private JMSException containerOwnsTransactions(String what) {
        return inTransaction()
                ? new TransactionInProgressException(what + " belongs to the container's transaction")
                : new IllegalStateException(what + " on a session that is not transacted");
    }

    @Override
    public void recover() throws JMSException {
        session();
        if (inTransaction()) {
            throw new IllegalStateException("recover in a transaction");
        }
        session.recover();
    }

    @Override
    public MessageListener getMessageListener() throws JMSException {
        session();
        throw new IllegalStateException("message listeners are not allowed in a Jakarta EE container");
    }

    @Override
    public void setMessageListener(MessageListener listener) throws JMSException {
        session();
        throw new IllegalStateException("message listeners are not allowed in a Jakarta EE container");
    }

    @Override
    public void run() {
        throw new jakarta.jms.IllegalStateRuntimeException("run is not allowed in a Jakarta EE container");
    }

    @Override
    public BytesMessage createBytesMessage() throws JMSException {
        return session().createBytesMessage();
    }

    @Override
    public MapMessage createMapMessage() throws JMSException {
        return session().createMapMessage();
    }

    @Override
    public Message createMessage() throws JMSException {
        return session().createMessage();
    }

    @Override
    public ObjectMessage createObjectMessage() throws JMSException {
        return session().createObjectMessage();
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) throws JMSException {
        return session().createObjectMessage(object);
    }

    @Override
    public StreamMessage createStreamMessage() throws JMSException {
        return session().createStreamMessage();
    }

    @Override
    public TextMessage createTextMessage() throws JMSException {
        return session().createTextMessage();
    }

    @Override
    public TextMessage createTextMessage(String text) throws JMSException {
        return session().createTextMessage(text);
    }

    @Override
    public MessageProducer createProducer(Destination destination) throws JMSException {
        return child(session().createProducer(destination));
    }

    @Override
    public MessageConsumer createConsumer(Destination destination) throws JMSException {
        return child(session().createConsumer(destination));
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String selector) throws JMSException {
        return child(session().createConsumer(destination, selector));
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String selector, boolean noLocal)
            throws JMSException {
        return child(session().createConsumer(destination, selector, noLocal));
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) throws JMSException {
        return child(session().createSharedConsumer(topic, sharedSubscriptionName));
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String selector)
            throws JMSException {
        return child(session().createSharedConsumer(topic, sharedSubscriptionName, selector));
    }

    @Override
    public Queue createQueue(String queueName) throws JMSException {
        return session().createQueue(queueName);
    }

    @Override
    public Topic createTopic(String topicName) throws JMSException {
        return session().createTopic(topicName);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name) throws JMSException {
        return child(session().createDurableSubscriber(topic, name));
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name, String selector, boolean noLocal)
            throws JMSException {
        return child(session().createDurableSubscriber(topic, name, selector, noLocal));
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name) throws JMSException {
        return child(session().createDurableConsumer(topic, name));
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name, String selector, boolean noLocal)
            throws JMSException {
        return child(session().createDurableConsumer(topic, name, selector, noLocal));
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name) throws JMSException {
        return child(session().createSharedDurableConsumer(topic, name));
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name, String selector)
            throws JMSException {
        return child(session().createSharedDurableConsumer(topic, name, selector));
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) throws JMSException {
        return child(session().createBrowser(queue));
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String selector) throws JMSException {
        return child(session().createBrowser(queue, selector));
    }

    @Override
    public TemporaryQueue createTemporaryQueue() throws JMSException {
        return session().createTemporaryQueue();
    }

    @Override
    public TemporaryTopic createTemporaryTopic() throws JMSException {
        return session().createTemporaryTopic();
    }

    @Override
    public void unsubscribe(String name) throws JMSException {
        session().unsubscribe(name);
    }

    @Override
    public QueueReceiver createReceiver(Queue queue) throws JMSException {
        return child(queueSession().createReceiver(queue));
    }

    @Override
    public QueueReceiver createReceiver(Queue queue, String selector) throws JMSException {
        return child(queueSession().createReceiver(queue, selector));
    }

    @Override
    public QueueSender createSender(Queue queue) throws JMSException {
        return child(queueSession().createSender(queue));
    }

    @Override
    public TopicSubscriber createSubscriber(Topic topic) throws JMSException {
        return child(topicSession().createSubscriber(topic));
    }

    @Override
    public TopicSubscriber createSubscriber(Topic topic, String selector, boolean noLocal) throws JMSException {
        return child(topicSession().createSubscriber(topic, selector, noLocal));
    }

    @Override
    public TopicPublisher createPublisher(Topic topic) throws JMSException {
        return child(topicSession().createPublisher(topic));
    }

    private QueueSession queueSession() throws JMSException {
        if (session() instanceof QueueSession q) {
            return q;
        }
        throw new IllegalStateException("the pooled session is not a QueueSession");
    }

    private TopicSession topicSession() throws JMSException {
        if (session() instanceof TopicSession t) {
            return t;
        }
        throw new IllegalStateException("the pooled session is not a TopicSession");
    }
}
