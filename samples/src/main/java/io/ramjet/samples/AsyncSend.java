package io.ramjet.samples;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asynchronous send: {@link MessageProducer#send(Message, CompletionListener)} returns at once
 * and the listener hears, on another thread, when the broker has the message durably (or why
 * not). The program sends a batch without waiting on each one, then waits for every callback.
 * <pre>
 * mvn -q -pl samples exec:java -Dexec.mainClass=io.ramjet.samples.AsyncSend [-Dexec.args=ramjet://host:9876]
 * </pre>
 */
public final class AsyncSend {

    private static final Logger LOG = LoggerFactory.getLogger(AsyncSend.class);

    public static final String DEFAULT_URL = "ramjet://127.0.0.1:9876";
    public static final String QUEUE = "samples.async";

    /** The callbacks heard: the texts whose send completed, in callback order, and the failures. */
    public record Outcome(List<String> completed, List<Exception> failed, boolean allCallbacksHeard) {
    }

    private AsyncSend() {
    }

    public static void main(String[] args) throws JMSException, InterruptedException {
        String url = args.length > 0 ? args[0] : DEFAULT_URL;
        Outcome outcome = sendAll(new RamjetConnectionFactory(url), QUEUE, 100);
        System.out.println(outcome.completed().size() + " sends completed, " + outcome.failed().size() + " failed"
                + (outcome.allCallbacksHeard() ? "" : ", some callbacks never came"));
    }

    /** Sends {@code count} texts "message 1" ... asynchronously and waits (ten seconds at most) for all callbacks. */
    public static Outcome sendAll(ConnectionFactory factory, String queueName, int count)
            throws JMSException, InterruptedException {
        CountDownLatch callbacks = new CountDownLatch(count);
        ConcurrentLinkedQueue<String> completed = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Exception> failed = new ConcurrentLinkedQueue<>();
        CompletionListener listener = new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                try {
                    completed.add(message.getBody(String.class));
                } catch (JMSException e) {
                    failed.add(e);
                }
                callbacks.countDown();
            }

            @Override
            public void onException(Message message, Exception exception) {
                LOG.warn("send failed: {}", exception.toString());
                failed.add(exception);
                callbacks.countDown();
            }
        };

        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue(queueName));
            long start = System.nanoTime();
            for (int i = 1; i <= count; i++) {
                producer.send(session.createTextMessage("message " + i), listener);
            }
            LOG.info("{} sends issued in {} ms; waiting for their callbacks", count, (System.nanoTime() - start) / 1_000_000);
            boolean allHeard = callbacks.await(10, TimeUnit.SECONDS);
            LOG.info("all sends acknowledged after {} ms", (System.nanoTime() - start) / 1_000_000);
            return new Outcome(List.copyOf(completed), List.copyOf(failed), allHeard);
        }
    }
}
