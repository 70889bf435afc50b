package io.ramjet.reliability;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import java.time.Duration;

/** The few JMS moves every reliability test makes: its message id property and quiet closing. */
final class Jms {

    /** The string property that carries the test's own message id. */
    static final String ID = "rid";

    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private Jms() {
    }

    static RamjetConnectionFactory factory(BrokerProcess broker) {
        return new RamjetConnectionFactory(broker.url());
    }

    static TextMessage message(Session session, String id) throws JMSException {
        TextMessage m = session.createTextMessage("reliability " + id);
        m.setStringProperty(ID, id);
        return m;
    }

    static String id(Message m) throws JMSException {
        return m.getStringProperty(ID);
    }

    /**
     * Closes a JMS object that may already be broken, waiting at most {@link #CLOSE_TIMEOUT}: a
     * failure to close is not the test's concern, but a close that hangs must not hang the test.
     *
     * @return false when close() had not returned in time
     */
    static boolean closeQuietly(AutoCloseable c) {
        if (c == null) {
            return true;
        }
        Thread closer = new Thread(() -> {
            try {
                c.close();
            } catch (Exception | LinkageError e) {
                // the connection is being replaced; what it fails to release, the broker reclaims
            }
        }, "quiet-close");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(CLOSE_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !closer.isAlive();
    }
}
