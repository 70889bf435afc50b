package io.ramjet.provider.jms;

import io.ramjet.provider.client.SessionInfo;
import io.ramjet.provider.destination.RamjetDestination;
import io.ramjet.provider.destination.RamjetQueue;
import io.ramjet.provider.destination.RamjetTopic;
import io.ramjet.provider.jms.transaction.TransactionContext;
import io.ramjet.provider.message.RamjetBytesMessage;
import io.ramjet.provider.message.RamjetMapMessage;
import io.ramjet.provider.message.RamjetMessage;
import io.ramjet.provider.message.RamjetObjectMessage;
import io.ramjet.provider.message.RamjetStreamMessage;
import io.ramjet.provider.message.RamjetTextMessage;
import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
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
import java.io.Serializable;
import java.util.List;

/**
 * A JMS session: its consumers ({@link SessionConsumers}) and producers, its acknowledgement
 * mode, and the one thread that runs its message listeners and completion listeners, one at a
 * time ({@link SessionThread}).
 *
 * <p>How consumed messages are settled is the business of its {@link SessionAcknowledgement}:
 * AUTO and DUPS_OK acknowledge each message once {@code receive} returns it or its listener
 * returns; CLIENT keeps every consumed message until {@link #acknowledge()} acks them all, or
 * {@link #recover()} releases them with the delivery counted, ahead of anything prefetched.
 * Transactions are the business of the session's {@link TransactionContext}: none, a local
 * transaction (transacted session) or an XA branch ({@link RamjetXASession}).
 */
public class RamjetSession implements Session, QueueSession, TopicSession {

    private final RamjetConnection connection;
    private final SessionInfo info;
    private final TransactionContext transaction;
    private final SessionConsumers consumers;
    private volatile MessagingDomain domain = MessagingDomain.BOTH;
    private final SessionProducers producers;
    private final SessionAcknowledgement acknowledgement;
    private final SessionThread thread;
    private volatile boolean closed;

    RamjetSession(RamjetConnection connection, long sessionId, int acknowledgeMode, TransactionContext transaction) {
        this.connection = connection;
        this.info = new SessionInfo(sessionId, acknowledgeMode);
        this.transaction = transaction;
        this.consumers = new SessionConsumers(this, connection);
        this.producers = new SessionProducers(this, connection, transaction);
        this.thread = new SessionThread("ramjet-session-" + sessionId);
        this.acknowledgement = new SessionAcknowledgement(connection, acknowledgeMode, transaction, thread);
    }

    RamjetConnection connection() {
        return connection;
    }

    SessionInfo info() {
        return info;
    }

    /** How this session's consumed messages are settled: for its consumers' pipelines and dispatch. */
    SessionAcknowledgement acknowledgement() {
        return acknowledgement;
    }

    /** This session's consumers: for a consumer that closes, and the connection. */
    SessionConsumers consumers() {
        return consumers;
    }

    /** This session's producers and where their messages go: for its producers. */
    SessionProducers producers() {
        return producers;
    }

    // ---- messages

    @Override
    public Message createMessage() throws JMSException {
        checkOpen();
        return new RamjetMessage();
    }

    @Override
    public BytesMessage createBytesMessage() throws JMSException {
        checkOpen();
        return new RamjetBytesMessage();
    }

    @Override
    public MapMessage createMapMessage() throws JMSException {
        checkOpen();
        return new RamjetMapMessage();
    }

    @Override
    public ObjectMessage createObjectMessage() throws JMSException {
        checkOpen();
        return new RamjetObjectMessage(connection.info().allowList());
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) throws JMSException {
        ObjectMessage message = createObjectMessage();
        message.setObject(object);
        return message;
    }

    @Override
    public StreamMessage createStreamMessage() throws JMSException {
        checkOpen();
        return new RamjetStreamMessage();
    }

    @Override
    public TextMessage createTextMessage() throws JMSException {
        checkOpen();
        return new RamjetTextMessage();
    }

    @Override
    public TextMessage createTextMessage(String text) throws JMSException {
        checkOpen();
        return new RamjetTextMessage(text);
    }

    // ---- destinations

    /** Limits this session to one domain: for {@code createQueueSession} and {@code createTopicSession}. */
    RamjetSession limitedTo(MessagingDomain only) {
        this.domain = only;
        return this;
    }

    @Override
    public Queue createQueue(String queueName) throws JMSException {
        checkOpen();
        domain.checkQueueMethod("createQueue");
        return new RamjetQueue(checkName(queueName));
    }

    @Override
    public Topic createTopic(String topicName) throws JMSException {
        checkOpen();
        domain.checkTopicMethod("createTopic");
        return new RamjetTopic(checkName(topicName));
    }

    private static String checkName(String name) throws JMSException {
        if (name == null || name.isBlank()) {
            throw new InvalidDestinationException("a destination name must not be empty");
        }
        return name;
    }

    @Override
    public TemporaryQueue createTemporaryQueue() throws JMSException {
        checkOpen();
        domain.checkQueueMethod("createTemporaryQueue");
        return connection.createTemporaryQueue();
    }

    @Override
    public TemporaryTopic createTemporaryTopic() throws JMSException {
        checkOpen();
        domain.checkTopicMethod("createTemporaryTopic");
        return connection.createTemporaryTopic();
    }

    // ---- producers

    @Override
    public MessageProducer createProducer(Destination destination) throws JMSException {
        return newProducer(destination);
    }

    @Override
    public QueueSender createSender(Queue queue) throws JMSException {
        return newProducer(queue);
    }

    @Override
    public TopicPublisher createPublisher(Topic topic) throws JMSException {
        return newProducer(topic);
    }

    private RamjetMessageProducer newProducer(Destination destination) throws JMSException {
        return producers.open(destination);
    }

    // ---- consumers

    @Override
    public MessageConsumer createConsumer(Destination destination) throws JMSException {
        return createConsumer(destination, null, false);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector) throws JMSException {
        return createConsumer(destination, messageSelector, false);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal)
            throws JMSException {
        return consumers.open(destination, messageSelector, noLocal);
    }

    @Override
    public QueueReceiver createReceiver(Queue queue) throws JMSException {
        return (QueueReceiver) createConsumer(queue, null, false);
    }

    @Override
    public QueueReceiver createReceiver(Queue queue, String messageSelector) throws JMSException {
        return (QueueReceiver) createConsumer(queue, messageSelector, false);
    }

    @Override
    public TopicSubscriber createSubscriber(Topic topic) throws JMSException {
        return (TopicSubscriber) createConsumer(topic, null, false);
    }

    @Override
    public TopicSubscriber createSubscriber(Topic topic, String messageSelector, boolean noLocal)
            throws JMSException {
        return (TopicSubscriber) createConsumer(topic, messageSelector, noLocal);
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) throws JMSException {
        return createSharedConsumer(topic, sharedSubscriptionName, null);
    }

    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector)
            throws JMSException {
        domain.checkTopicMethod("createSharedConsumer");
        return consumers.openShared(topic, sharedSubscriptionName, messageSelector);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name) throws JMSException {
        return createDurableSubscriber(topic, name, null, false);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        domain.checkTopicMethod("createDurableSubscriber");
        return consumers.openDurable(topic, name, messageSelector, noLocal);
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name) throws JMSException {
        return createDurableConsumer(topic, name, null, false);
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        domain.checkTopicMethod("createDurableConsumer");
        return createDurableSubscriber(topic, name, messageSelector, noLocal);
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name) throws JMSException {
        return createSharedDurableConsumer(topic, name, null);
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector)
            throws JMSException {
        domain.checkTopicMethod("createSharedDurableConsumer");
        return consumers.openSharedDurable(topic, name, messageSelector);
    }

    @Override
    public void unsubscribe(String name) throws JMSException {
        checkOpen();
        domain.checkTopicMethod("unsubscribe");
        consumers.unsubscribe(name);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) throws JMSException {
        return createBrowser(queue, null);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) throws JMSException {
        checkOpen();
        domain.checkQueueMethod("createBrowser");
        if (queue == null) {
            throw new InvalidDestinationException("no queue");
        }
        return new RamjetQueueBrowser(this, (RamjetQueue) RamjetDestination.from(queue), messageSelector);
    }

    // ---- acknowledgement

    @Override
    public int getAcknowledgeMode() throws JMSException {
        checkOpen();
        return info.acknowledgeMode();
    }

    @Override
    public boolean getTransacted() throws JMSException {
        checkOpen();
        return transaction.isTransacted();
    }

    /** CLIENT_ACKNOWLEDGE: acknowledges every message the session has consumed ({@link SessionAcknowledgement#acknowledge}). */
    void acknowledge() throws JMSException {
        checkOpen();
        acknowledgement.acknowledge(consumers::dropPrefetched);
    }

    @Override
    public void recover() throws JMSException {
        checkOpen();
        if (transaction.isTransacted()) {
            throw new IllegalStateException("recover is not allowed in a transacted session");
        }
        acknowledgement.recover(consumers);
    }

    @Override
    public void commit() throws JMSException {
        checkOpen();
        checkNotCompleting("commit");
        transaction.commit();
    }

    @Override
    public void rollback() throws JMSException {
        checkOpen();
        checkNotCompleting("roll back");
        transaction.rollback();
        consumers.releasePrefetched();
    }

    // ---- the session thread

    /** The thread that runs this session's message listeners and completion listeners. */
    SessionThread thread() {
        return thread;
    }

    private void checkNotCompleting(String operation) throws IllegalStateException {
        if (thread.runsCompletion()) {
            throw new IllegalStateException("a completion listener must not " + operation + " its own session");
        }
    }

    // ---- distinguished listener and run(): application server facilities, not offered

    @Override
    public MessageListener getMessageListener() throws JMSException {
        checkOpen();
        return null;
    }

    @Override
    public void setMessageListener(MessageListener listener) throws JMSException {
        checkOpen();
        throw new JMSException("a session's distinguished message listener is not supported");
    }

    @Override
    public void run() {
        throw new UnsupportedOperationException("Session.run is an application server facility");
    }

    // ---- close

    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        if (thread.isCurrent()) {
            throw new IllegalStateException("a message listener must not close its own session");
        }
        closed = true;
        producers.close();
        JMSException first = null;
        try {
            transaction.close();
        } catch (JMSException e) {
            first = e;
        }
        try {
            acknowledgement.redeliverAhead(List.of());
        } catch (JMSException e) {
            first = first == null ? e : first;
        }
        first = consumers.close(first);
        acknowledgement.forget();
        thread.shutdown();
        connection.removed(this);
        if (first != null) {
            throw first;
        }
    }

    boolean isClosed() {
        return closed || connection.isClosed();
    }

    void checkOpen() throws IllegalStateException {
        if (isClosed()) {
            throw new IllegalStateException("the session is closed");
        }
    }
}
