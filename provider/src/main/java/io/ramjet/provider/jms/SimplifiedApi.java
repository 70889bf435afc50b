package io.ramjet.provider.jms;

import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;

/**
 * The simplified API's producer and consumer over classic objects, for a {@link JMSContext} built
 * outside this package (the resource adapter's context over a pooled connection): the same
 * behaviour as a context of {@link RamjetConnectionFactory}.
 */
public final class SimplifiedApi {

    private SimplifiedApi() {
    }

    /** A producer that makes its messages with {@code context} and sends them with {@code anonymous}. */
    public static JMSProducer producer(JMSContext context, MessageProducer anonymous) {
        return new RamjetJMSProducer(context, anonymous);
    }

    /** The simplified API's view of a consumer that a Ramjet session made. */
    public static JMSConsumer consumer(MessageConsumer consumer) {
        if (consumer instanceof RamjetMessageConsumer ramjet) {
            return new RamjetJMSConsumer(ramjet);
        }
        throw new JMSRuntimeException("not a Ramjet consumer: " + consumer.getClass().getName());
    }
}
