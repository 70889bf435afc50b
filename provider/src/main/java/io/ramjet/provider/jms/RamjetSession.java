package io.ramjet.provider.jms;

import io.ramjet.model.MessagePosition;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.SubscriptionType;
import io.ramjet.provider.client.ConsumerIds;
import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.OutgoingMessage;
import io.ramjet.provider.client.SessionInfo;
import io.ramjet.provider.destination.RamjetDestination;
import io.ramjet.provider.destination.RamjetQueue;
import io.ramjet.provider.destination.RamjetTopic;
import io.ramjet.provider.jms.error.JmsErrors;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A JMS session: its consumers and producers, its acknowledgement mode, and the one thread that
 * runs its message listeners and completion listeners, one at a time ({@link SessionThread}).
 *
 * <p>AUTO and DUPS_OK acknowledge each message once {@code receive} returns it or its listener
 * returns, through an {@link AckSender}: both in batches sent without waiting, AUTO's also as
 * soon as its consumer has nothing more ready. CLIENT keeps every consumed message
 * ({@link ClientAcknowledgements}) until {@link #acknowledge()} acks them all, or
 * {@link #recover()} releases them with the delivery counted, ahead of anything prefetched.
 * Transactions are the business of the session's {@link TransactionContext}: none, a local
 * transaction (transacted session) or an XA branch ({@link RamjetXASession}).
 */
public class RamjetSession implements Session, QueueSession, TopicSession {

    private final RamjetConnection connection;
    private final SessionInfo info;
    private final TransactionContext transaction;
    private final List<RamjetMessageConsumer> consumers = new CopyOnWriteArrayList<>();
    private volatile MessagingDomain domain = MessagingDomain.BOTH;
    /** recover() was called in AUTO or DUPS_OK mode from the listener: its message is to be redelivered. */
    private volatile boolean recoverRequested;
    private final List<RamjetMessageProducer> producers = new CopyOnWriteArrayList<>();
    private final Map<RamjetDestination, Integer> queueChoices = new ConcurrentHashMap<>();
    /** CLIENT_ACKNOWLEDGE: the consumed messages an acknowledge() is to settle. */
    private final ClientAcknowledgements unacknowledged = new ClientAcknowledgements();
    /** AUTO_ACKNOWLEDGE and DUPS_OK_ACKNOWLEDGE: acknowledgements sent as messages are consumed. */
    private final AckSender acks;
    private final SessionThread thread;
    private volatile boolean closed;

    RamjetSession(RamjetConnection connection, long sessionId, int acknowledgeMode, TransactionContext transaction) {
        this.connection = connection;
        this.info = new SessionInfo(sessionId, acknowledgeMode);
        this.transaction = transaction;
        this.acks = new AckSender(connection.client(), acknowledgeMode == Session.DUPS_OK_ACKNOWLEDGE,
                connection.info().options(), connection.timer(), connection::onAsyncFailure);
        this.thread = new SessionThread("ramjet-session-" + sessionId);
    }

    RamjetConnection connection() {
        return connection;
    }

    SessionInfo info() {
        return info;
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
        checkOpen();
        RamjetMessageProducer producer = new RamjetMessageProducer(this, RamjetDestination.from(destination));
        producers.add(producer);
        return producer;
    }

    void removed(RamjetMessageProducer producer) {
        producers.remove(producer);
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
        RamjetDestination d = destinationOf(destination);
        long id = newConsumerId();
        SubscriptionRef ref = d.isQueue() ? SubscriptionRef.queue(d.name()) : SubscriptionRef.topic(d.name(), id);
        return newConsumer(id, d, ref, messageSelector, noLocal && !d.isQueue());
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

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector)
            throws JMSException {
        domain.checkTopicMethod("createSharedConsumer");
        RamjetDestination d = topicOf(topic);
        SubscriptionRef ref = new SubscriptionRef(d.name(), SubscriptionType.SHARED, connection.info().clientId(),
                subscriptionName(sharedSubscriptionName));
        return newConsumer(newConsumerId(), d, ref, messageSelector, false);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name) throws JMSException {
        return createDurableSubscriber(topic, name, null, false);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        domain.checkTopicMethod("createDurableSubscriber");
        RamjetDestination d = topicOf(topic);
        String clientId = connection.info().clientId();
        if (clientId == null) {
            throw new IllegalStateException("an unshared durable subscription needs a client id");
        }
        SubscriptionRef ref = new SubscriptionRef(d.name(), SubscriptionType.DURABLE, clientId, subscriptionName(name));
        return newConsumer(newConsumerId(), d, ref, messageSelector, noLocal);
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
        RamjetDestination d = topicOf(topic);
        SubscriptionRef ref = new SubscriptionRef(d.name(), SubscriptionType.SHARED_DURABLE,
                connection.info().clientId(), subscriptionName(name));
        return newConsumer(newConsumerId(), d, ref, messageSelector, false);
    }

    @Override
    public void unsubscribe(String name) throws JMSException {
        checkOpen();
        domain.checkTopicMethod("unsubscribe");
        String clientId = connection.info().clientId();
        for (RamjetMessageConsumer consumer : consumers) {
            SubscriptionRef ref = consumer.info().subscription();
            if (ref.type() == SubscriptionType.DURABLE && ref.name().equals(name)) {
                throw new IllegalStateException("durable subscription '" + name + "' has an active consumer");
            }
        }
        JmsErrors.await(connection.client().deleteSubscription(clientId, subscriptionName(name)));
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

    private RamjetMessageConsumer newConsumer(long id, RamjetDestination destination, SubscriptionRef ref,
                                              String selector, boolean noLocal) throws JMSException {
        checkOpen();
        if (destination.isTemporary() && !connection.ownsTemporary(destination)) {
            throw new InvalidDestinationException("temporary destination " + destination.name()
                    + " belongs to another connection");
        }
        connection.fixClientId();
        RamjetMessageConsumer consumer = RamjetMessageConsumer.open(this, id, destination, ref, selector, noLocal);
        consumers.add(consumer);
        return consumer;
    }

    void removed(RamjetMessageConsumer consumer) {
        consumers.remove(consumer);
    }

    /**
     * A consumer has closed: the broker drops it, giving back uncounted what the application
     * never saw. The messages of it that this session consumed and has still to acknowledge,
     * commit or roll back stay delivered to it at the broker, for the session to settle.
     */
    CompletableFuture<Void> detach(ConsumerInfo attachment, List<MessagePosition> inHand) {
        List<MessagePosition> held = new ArrayList<>(transaction.consumedFrom(attachment));
        held.addAll(inHand);
        unacknowledged.heldBy(attachment, held);
        List<MessagePosition> ackFailed = acks.takeFailed(attachment);
        CompletableFuture<Void> counted = ackFailed.isEmpty() ? CompletableFuture.completedFuture(null)
                : connection.client().release(attachment, ackFailed, true);
        return counted.handle((done, failure) -> null)
                .thenCompose(released -> connection.client().closeConsumer(attachment, held));
    }

    boolean consumes(RamjetDestination destination) {
        return consumers.stream().anyMatch(c -> c.destination().equals(destination));
    }

    private RamjetDestination destinationOf(Destination destination) throws JMSException {
        if (destination == null) {
            throw new InvalidDestinationException("no destination");
        }
        return RamjetDestination.from(destination);
    }

    private RamjetDestination topicOf(Topic topic) throws JMSException {
        if (topic == null) {
            throw new InvalidDestinationException("no topic");
        }
        return RamjetDestination.from(topic);
    }

    private static String subscriptionName(String name) throws JMSException {
        if (name == null || name.isEmpty()) {
            throw new JMSException("a subscription name must not be empty");
        }
        return name;
    }

    private static long newConsumerId() {
        return ConsumerIds.next();
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

    boolean isClientAcknowledge() {
        return info.acknowledgeMode() == Session.CLIENT_ACKNOWLEDGE;
    }

    /** A message the application has been given stays unacknowledged until acknowledge or commit. */
    boolean keepsConsumedMessages() {
        return isClientAcknowledge() || transaction.holdsConsumed();
    }

    /** The application has been given this message (receive returned it, or its listener returned). */
    void consumed(Delivery delivery) throws JMSException {
        if (transaction.consumed(delivery)) {
            return;
        }
        if (isClientAcknowledge()) {
            unacknowledged.consumed(delivery);
        } else {
            acks.ack(delivery);
        }
    }

    /** A consumer of this session has handed over everything it had ready: AUTO acks go out now. */
    void caughtUp() throws JMSException {
        if (!keepsConsumedMessages()) {
            acks.caughtUp();
        }
    }

    /** Whether the listener that just returned called recover(); clears the request. */
    boolean takeRecoverRequest() {
        boolean requested = recoverRequested;
        recoverRequested = false;
        return requested;
    }

    /** Sends the DUPS_OK batch and waits for every AUTO or DUPS_OK ack on its way; throws one that failed. */
    void awaitAcknowledgements() throws JMSException {
        acks.awaitSent();
    }

    /**
     * CLIENT_ACKNOWLEDGE: acknowledges every message the session has consumed. It throws once for
     * consumed messages whose attachment was lost since the last call (see {@link #attachmentLost}),
     * after acknowledging the others. A consumer whose broker is found gone drops its prefetched
     * messages now, so that the application is not handed more that no acknowledge can settle
     * (its feed sees the loss at its next pull).
     */
    void acknowledge() throws JMSException {
        checkOpen();
        unacknowledged.acknowledge(connection.client(),
                attachment -> consumers.forEach(c -> c.dropPrefetched(attachment)));
    }

    /**
     * A consumer of this session lost {@code attachment} (its broker gone): the broker gives the
     * messages delivered through it to the subscription again, flagged redelivered, so the
     * consumed ones are no longer this session's to acknowledge; acknowledge() reports them once.
     */
    void attachmentLost(ConsumerInfo attachment) {
        unacknowledged.attachmentLost(attachment);
    }

    @Override
    public void recover() throws JMSException {
        checkOpen();
        if (transaction.isTransacted()) {
            throw new IllegalStateException("recover is not allowed in a transacted session");
        }
        acks.awaitSent();
        if (!isClientAcknowledge()) {
            // AUTO, DUPS_OK: only the message a listener is handling is unacknowledged (section 6.2.11)
            if (isListenerThread()) {
                recoverRequested = true;
            }
            return;
        }
        List<RamjetMessageConsumer> paused = List.copyOf(consumers);
        List<Delivery> unseen = new ArrayList<>();
        try {
            for (RamjetMessageConsumer consumer : paused) {
                unseen.addAll(consumer.pause());
            }
            redeliverAhead(unseen);
        } finally {
            for (RamjetMessageConsumer consumer : paused) {
                consumer.resume();
            }
        }
    }

    /**
     * With every consumer's intake paused: the consumed messages are released with the delivery
     * counted and the prefetched ones the application never saw without, all answered before
     * the intake resumes, so the brokers offer the consumed ones again first, in their order
     * (offset order within each message queue), with {@code JMSRedelivered=true}.
     */
    private void redeliverAhead(List<Delivery> unseen) throws JMSException {
        List<Delivery> toRelease = unacknowledged.takeAll();
        // the consumed ones first: an attachment's releases are applied in the order asked
        JmsErrors.await(CompletableFuture.allOf(connection.client().release(toRelease, true),
                connection.client().release(unseen, false)));
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
        releasePrefetched();
    }

    /** Redelivery after a rollback starts with the rolled-back messages, not with later prefetched ones. */
    private void releasePrefetched() throws JMSException {
        for (RamjetMessageConsumer consumer : consumers) {
            consumer.releasePrefetched();
        }
    }

    /**
     * Sends one message for a producer of this session, inside its transaction if there is one:
     * a message of a group ({@code groupId} not null) to the queue its group id hashes to, any
     * other to the session's queue for the destination.
     */
    CompletableFuture<Void> send(OutgoingMessage message, RamjetDestination destination, String groupId) {
        int choice = groupId == null ? queueChoice(destination) : GroupQueueChoice.of(groupId);
        return transaction.send(connection.client(), message, choice);
    }

    /**
     * What a synchronous send waits for: the broker's answer, except where the transaction
     * context confirms later (in a transaction, whose end waits for all of them; a NON_PERSISTENT
     * send outside one); a failure already known is still thrown here.
     */
    void awaitSent(CompletableFuture<Void> sending, OutgoingMessage message) throws JMSException {
        if (transaction.confirmsLater(message) && !sending.isCompletedExceptionally()) {
            return;
        }
        JmsErrors.await(sending);
    }

    // ---- the session thread

    /** Runs a listener delivery or a completion callback on the session thread, after those before it. */
    void dispatch(Runnable task) {
        thread.execute(task);
    }

    /** Whether the caller runs on this session's thread: in a message listener or a completion listener. */
    boolean isListenerThread() {
        return thread.isCurrent();
    }

    /** Whether the caller is a message listener of this session (not a completion listener). */
    boolean isMessageListenerThread() {
        return thread.runsMessageListener();
    }

    /** Runs a completion listener's callback on the session thread, known as one (section 7.3.8). */
    void runCompletion(Runnable callback) {
        thread.runCompletion(callback);
    }

    private void checkNotCompleting(String operation) throws IllegalStateException {
        if (thread.runsCompletion()) {
            throw new IllegalStateException("a completion listener must not " + operation + " its own session");
        }
    }

    /** Waits for a listener in progress to return; listeners run only while the connection is started. */
    void awaitListenerIdle() {
        thread.awaitIdle();
    }

    void connectionStarted() {
        for (RamjetMessageConsumer consumer : consumers) {
            consumer.connectionStarted();
        }
    }

    /** The connection stopped (listeners idle): consumers give back what they prefetched. */
    void connectionStopped() throws JMSException {
        for (RamjetMessageConsumer consumer : consumers) {
            consumer.connectionStopped();
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
        if (isListenerThread()) {
            throw new IllegalStateException("a message listener must not close its own session");
        }
        closed = true;
        for (RamjetMessageProducer producer : producers) {
            producer.close();
        }
        JMSException first = null;
        try {
            transaction.close();
        } catch (JMSException e) {
            first = e;
        }
        try {
            redeliverAhead(List.of());
        } catch (JMSException e) {
            first = first == null ? e : first;
        }
        for (RamjetMessageConsumer consumer : consumers) {
            try {
                consumer.close();
            } catch (JMSException e) {
                first = first == null ? e : first;
            }
        }
        unacknowledged.takeAll();
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

    /**
     * The message queue this session sends to for {@code destination}: chosen once, the next of
     * its connection's {@link QueueChoices} (sessions spread evenly over the destination's queues
     * of all its groups), shared by all its producers, so the session's messages keep their order.
     */
    int queueChoice(RamjetDestination destination) {
        return queueChoices.computeIfAbsent(destination, connection.queueChoices()::next);
    }
}
