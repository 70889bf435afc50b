package io.ramjet.provider.jms;

import io.ramjet.provider.client.ConsumerInfo;
import io.ramjet.provider.client.Delivery;
import io.ramjet.provider.client.RamjetClient;
import io.ramjet.provider.jms.error.JmsErrors;
import jakarta.jms.JMSException;
import jakarta.jms.MessageListener;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer's asynchronous receipt: its listener, called on the session's thread with what the
 * pipeline holds while the connection runs, and what a listener's outcome means for its message
 * (consumed, redelivered when it throws, redelivered with what follows on recover).
 */
final class ListenerDispatch {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerDispatch.class);

    private final RamjetSession session;
    private final RamjetClient client;
    private final ConsumerInfo info;
    private final ConsumerPipeline pipeline;
    private final ConsumerCalls calls;
    private volatile MessageListener listener;

    ListenerDispatch(RamjetSession session, ConsumerInfo info, ConsumerPipeline pipeline, ConsumerCalls calls) {
        this.session = session;
        this.client = session.connection().client();
        this.info = info;
        this.pipeline = pipeline;
        this.calls = calls;
    }

    MessageListener listener() {
        return listener;
    }

    /** Sets (or, with null, removes) the listener and hands it what is prefetched. */
    void listen(MessageListener listener) {
        this.listener = listener;
        pipeline.demand().listening(listener != null);
        schedule();
    }

    /** Asks the session thread to deliver what is prefetched, when there is a listener and the connection runs. */
    void schedule() {
        if (listener != null && !pipeline.closed() && session.connection().isStarted()) {
            session.thread().execute(this::deliverToListener);
        }
    }

    /**
     * Where the session keeps consumed messages (CLIENT, transacted), a message counts as
     * consumed as soon as it is handed to the listener, so that {@code acknowledge},
     * {@code recover} or {@code commit} called from {@code onMessage} include it; otherwise it is
     * acknowledged once the listener returns, and redelivered if the listener throws.
     */
    private void deliverToListener() {
        while (!isClosed() && session.connection().isStarted()) {
            MessageListener current = listener;
            if (current == null) {
                return;
            }
            Received received;
            try {
                received = pipeline.take(0);
            } catch (InterruptedException e) {
                return;
            }
            if (received == null) {
                caughtUp();
                return;
            }
            boolean keeps = session.acknowledgement().keepsConsumedMessages();
            if (keeps) {
                consumed(received);
            }
            try {
                current.onMessage(received.message());
            } catch (RuntimeException e) {
                LOG.warn("listener of consumer {} threw; message redelivered", info.consumerId(), e);
                if (!keeps) {
                    Delivery d = received.delivery();
                    calls.logFailure(client.release(d.consumer(), List.of(d.position()), true), "release");
                    pipeline.settled(received);
                    continue;
                }
            }
            if (!keeps && session.acknowledgement().takeRecoverRequest()) {
                redeliverFromHere(received);
                continue;
            }
            if (!keeps) {
                consumed(received);
            }
        }
    }

    /**
     * recover() from the listener in AUTO or DUPS_OK mode: its message comes again, redelivered,
     * before what was prefetched behind it.
     */
    private void redeliverFromHere(Received current) {
        Delivery d = current.delivery();
        try {
            JmsErrors.await(client.release(d.consumer(), List.of(d.position()), true));
            pipeline.releasePrefetched();
        } catch (JMSException e) {
            session.connection().onAsyncFailure(e);
        }
    }

    private void caughtUp() {
        try {
            session.acknowledgement().caughtUp();
        } catch (JMSException e) {
            session.connection().onAsyncFailure(e);
        }
    }

    private void consumed(Received received) {
        try {
            session.acknowledgement().consumed(received.delivery());
            pipeline.settled(received);
        } catch (JMSException e) {
            session.connection().onAsyncFailure(e);
        }
    }

    private boolean isClosed() {
        return pipeline.closed() || session.isClosed();
    }
}
