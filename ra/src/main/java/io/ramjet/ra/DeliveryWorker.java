package io.ramjet.ra;

import io.ramjet.provider.jms.RamjetMessageConsumer;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.work.Work;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.transaction.xa.XAResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One concurrent delivery of an activation: its own connection, session and consumer, and one
 * message endpoint used serially. A transacted delivery opens the endpoint's transaction first
 * ({@code beforeDelivery}, which enlists the session's XA resource) and only then receives, so
 * that consuming the message is part of the transaction: a rollback (the bean threw or called
 * {@code setRollbackOnly}) makes the broker redeliver it, counting the delivery, and past the
 * broker's maximum it goes to the dead-letter queue. It opens that transaction only once a
 * message waits in its consumer, so an idle delivery opens none. A non-transacted delivery
 * acknowledges after {@code onMessage} returns and recovers the session when it throws. A lost
 * connection is reopened every {@code reconnectIntervalMs} until the activation stops; the
 * outage is logged once for all sessions of the adapter ({@link Reachability}), not per session
 * and attempt.
 */
final class DeliveryWorker implements Work {

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryWorker.class);

    private final EndpointActivation activation;
    private final RamjetActivationSpec spec;
    private final Destination destination;
    private final boolean transacted;
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile boolean released;
    private volatile JMSException connectionFailure;

    private volatile XAConnection connection;
    private Session session;
    private MessageConsumer consumer;
    private MessageEndpoint endpoint;

    DeliveryWorker(EndpointActivation activation, Destination destination, boolean transacted) {
        this.activation = activation;
        this.spec = activation.spec();
        this.destination = destination;
        this.transacted = transacted;
    }

    @Override
    public void run() {
        try {
            while (running()) {
                try {
                    open();
                    activation.reachability().connected(this);
                    while (running() && connectionFailure == null) {
                        deliverOne();
                    }
                    if (connectionFailure != null) {
                        activation.reachability().failed(this, connectionFailure);
                    }
                } catch (JMSException e) {
                    if (running()) {
                        activation.reachability().failed(this, e);
                    }
                } catch (ResourceException | RuntimeException e) {
                    if (running() && connectionFailure != null) {
                        activation.reachability().failed(this, connectionFailure);
                    } else if (running()) {
                        LOG.warn("{}: delivery failed; retrying in {} ms: {}", spec, spec.getReconnectIntervalMs(),
                                e.toString());
                        LOG.debug("delivery failure", e);
                    }
                } finally {
                    close();
                }
                if (running()) {
                    activation.pause(spec.getReconnectIntervalMs());
                }
            }
        } finally {
            activation.reachability().forget(this);
            ended.countDown();
        }
    }

    @Override
    public void release() {
        released = true;
    }

    void awaitEnd(long deadlineNanos) {
        try {
            ended.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean running() {
        return !released && !activation.isStopped();
    }

    private void open() throws JMSException, UnavailableException {
        connectionFailure = null;
        XAConnection opened = activation.settings().openXA(activation.resourceManager());
        connection = opened;
        // a report of a connection this worker already replaced must not end the new one
        opened.setExceptionListener(e -> {
            if (connection == opened) {
                connectionFailure = e;
                activation.reachability().failed(this, e);
            }
        });
        if (spec.getClientId() != null && !spec.getClientId().isBlank()) {
            connection.setClientID(spec.getClientId());
        }
        XAResource xaResource = null;
        if (transacted) {
            XASession xaSession = connection.createXASession();
            xaResource = new CompletingXAResource(xaSession.getXAResource(), activation.settings());
            session = xaSession;
        } else {
            session = connection.createSession(Session.CLIENT_ACKNOWLEDGE);
        }
        consumer = createConsumer();
        endpoint = activation.factory().createEndpoint(xaResource);
        connection.start();
    }

    private MessageConsumer createConsumer() throws JMSException {
        String selector = spec.getMessageSelector();
        if (!spec.isTopic()) {
            return session.createConsumer(destination, selector);
        }
        Topic topic = (Topic) destination;
        if (spec.isDurable()) {
            return spec.isSharedSubscription()
                    ? session.createSharedDurableConsumer(topic, spec.getSubscriptionName(), selector)
                    : session.createDurableConsumer(topic, spec.getSubscriptionName(), selector, false);
        }
        return spec.isSharedSubscription()
                ? session.createSharedConsumer(topic, activation.sharedSubscriptionName(), selector)
                : session.createConsumer(topic, selector);
    }

    private void deliverOne() throws JMSException, ResourceException {
        if (transacted) {
            deliverInTransaction();
        } else {
            deliverAndAcknowledge();
        }
    }

    private void deliverInTransaction() throws JMSException, ResourceException {
        if (consumer instanceof RamjetMessageConsumer waiting && !waiting.awaitMessage(spec.getReceiveTimeoutMs())) {
            return;
        }
        boolean failed = false;
        try {
            endpoint.beforeDelivery(EndpointActivation.ON_MESSAGE);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("the endpoint is no MessageListener", e);
        }
        try {
            Message message = consumer.receive(spec.getReceiveTimeoutMs());
            if (message != null) {
                failed = !deliver(message);
            }
        } finally {
            endpoint.afterDelivery();
        }
        if (failed && spec.getRedeliveryDelayMs() > 0) {
            activation.pause(spec.getRedeliveryDelayMs());
        }
    }

    private void deliverAndAcknowledge() throws JMSException {
        Message message = consumer.receive(spec.getReceiveTimeoutMs());
        if (message == null) {
            return;
        }
        if (deliver(message)) {
            message.acknowledge();
        } else {
            session.recover();
            if (spec.getRedeliveryDelayMs() > 0) {
                activation.pause(spec.getRedeliveryDelayMs());
            }
        }
    }

    /** Hands the message to the bean; false when it threw. */
    private boolean deliver(Message message) {
        try {
            ((MessageListener) endpoint).onMessage(message);
            return true;
        } catch (RuntimeException e) {
            LOG.debug("{}: the endpoint threw on {}", spec, message, e);
            return false;
        }
    }

    private void close() {
        if (endpoint != null) {
            endpoint.release();
            endpoint = null;
        }
        if (connection != null) {
            RamjetResourceAdapter.closeQuietly(connection);
            connection = null;
        }
        session = null;
        consumer = null;
    }
}
