package io.ramjet.provider.jms;

import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.SubscriptionType;
import io.ramjet.provider.client.ConsumerIds;
import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.destination.RamjetDestination;
import io.ramjet.provider.jms.error.JmsErrors;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Topic;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The consumers of one session: each opened on the subscription its JMS arguments name (a
 * queue, a topic consumer's own, a shared, durable or shared durable one), checked as the spec
 * asks, and what the session tells all of them (the connection started or stopped, a rollback, a
 * lost broker, close). The session checks its domain before it asks here.
 *
 * <p>Thread-safe: the list is copy-on-write; application threads open and close consumers while
 * the connection, a recover or a rollback walks them. Called by {@link RamjetSession}, and
 * through {@link RamjetSession#consumers()} by a closing consumer and by the connection (started,
 * stopped, whether a temporary destination is consumed).
 */
final class SessionConsumers {

    private final RamjetSession session;
    private final RamjetConnection connection;
    private final List<RamjetMessageConsumer> consumers = new CopyOnWriteArrayList<>();

    SessionConsumers(RamjetSession session, RamjetConnection connection) {
        this.session = session;
        this.connection = connection;
    }

    /** A consumer of a queue, or of a topic on a subscription of its own. */
    RamjetMessageConsumer open(Destination destination, String messageSelector, boolean noLocal) throws JMSException {
        RamjetDestination d = destinationOf(destination);
        long id = newConsumerId();
        SubscriptionRef ref = d.isQueue() ? SubscriptionRef.queue(d.name()) : SubscriptionRef.topic(d.name(), id);
        return newConsumer(id, d, ref, messageSelector, noLocal && !d.isQueue());
    }

    RamjetMessageConsumer openShared(Topic topic, String sharedSubscriptionName, String messageSelector)
            throws JMSException {
        RamjetDestination d = topicOf(topic);
        SubscriptionRef ref = new SubscriptionRef(d.name(), SubscriptionType.SHARED, connection.info().clientId(),
                subscriptionName(sharedSubscriptionName));
        return newConsumer(newConsumerId(), d, ref, messageSelector, false);
    }

    RamjetMessageConsumer openDurable(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        RamjetDestination d = topicOf(topic);
        String clientId = connection.info().clientId();
        if (clientId == null) {
            throw new IllegalStateException("an unshared durable subscription needs a client id");
        }
        SubscriptionRef ref = new SubscriptionRef(d.name(), SubscriptionType.DURABLE, clientId, subscriptionName(name));
        return newConsumer(newConsumerId(), d, ref, messageSelector, noLocal);
    }

    RamjetMessageConsumer openSharedDurable(Topic topic, String name, String messageSelector) throws JMSException {
        RamjetDestination d = topicOf(topic);
        SubscriptionRef ref = new SubscriptionRef(d.name(), SubscriptionType.SHARED_DURABLE,
                connection.info().clientId(), subscriptionName(name));
        return newConsumer(newConsumerId(), d, ref, messageSelector, false);
    }

    /** Deletes an unshared durable subscription, which no consumer of this session may be on. */
    void unsubscribe(String name) throws JMSException {
        String clientId = connection.info().clientId();
        for (RamjetMessageConsumer consumer : consumers) {
            SubscriptionRef ref = consumer.info().subscription();
            if (ref.type() == SubscriptionType.DURABLE && ref.name().equals(name)) {
                throw new IllegalStateException("durable subscription '" + name + "' has an active consumer");
            }
        }
        JmsErrors.await(connection.client().deleteSubscription(clientId, subscriptionName(name)));
    }

    private RamjetMessageConsumer newConsumer(long id, RamjetDestination destination, SubscriptionRef ref,
                                              String selector, boolean noLocal) throws JMSException {
        session.checkOpen();
        if (destination.isTemporary() && !connection.ownsTemporary(destination)) {
            throw new InvalidDestinationException("temporary destination " + destination.name()
                    + " belongs to another connection");
        }
        connection.fixClientId();
        RamjetMessageConsumer consumer = RamjetMessageConsumer.open(session, id, destination, ref, selector, noLocal);
        consumers.add(consumer);
        return consumer;
    }

    void removed(RamjetMessageConsumer consumer) {
        consumers.remove(consumer);
    }

    /** The consumers now, a copy. */
    List<RamjetMessageConsumer> all() {
        return List.copyOf(consumers);
    }

    boolean consumes(RamjetDestination destination) {
        return consumers.stream().anyMatch(c -> c.destination().equals(destination));
    }

    /** Each consumer drops what it prefetched through {@code attachment}, whose broker is gone. */
    void dropPrefetched(ConsumerInfo attachment) {
        consumers.forEach(c -> c.dropPrefetched(attachment));
    }

    /** Redelivery after a rollback starts with the rolled-back messages, not with later prefetched ones. */
    void releasePrefetched() throws JMSException {
        for (RamjetMessageConsumer consumer : consumers) {
            consumer.releasePrefetched();
        }
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

    /** Closes every consumer; the first failure, {@code first} if there was one before. */
    JMSException close(JMSException first) {
        for (RamjetMessageConsumer consumer : consumers) {
            try {
                consumer.close();
            } catch (JMSException e) {
                first = first == null ? e : first;
            }
        }
        return first;
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
}
