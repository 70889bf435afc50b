package io.ramjet.reliability;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * An application thread consuming synchronously in one acknowledge mode (or transacted) until
 * told to finish, replacing its connection when it breaks. Every delivery goes to the tally;
 * with CLIENT_ACKNOWLEDGE it acknowledges, and when transacted commits, every 1-5 messages (and
 * when idle), and reports the ids as acknowledged only once acknowledge() or commit() returned.
 */
final class Receiver implements Runnable {

    /** Opens the consumer on a new session: a queue consumer, a durable subscriber... */
    interface Opener {
        MessageConsumer open(Session session) throws JMSException;
    }

    private static final Duration RECONNECT_PAUSE = Duration.ofMillis(100);

    volatile int reconnects;
    volatile int acknowledgeFailures;
    private final ConnectionFactory factory;
    private final String clientId;
    private final int mode;
    private final Opener opener;
    private final Random random;
    private final Tally tally;
    private volatile boolean finished;

    /**
     * @param clientId null for none
     * @param mode     an acknowledge mode, or {@link Session#SESSION_TRANSACTED}
     */
    Receiver(ConnectionFactory factory, String clientId, int mode, Opener opener, Random random, Tally tally) {
        this.factory = factory;
        this.clientId = clientId;
        this.mode = mode;
        this.opener = opener;
        this.random = random;
        this.tally = tally;
    }

    static String modeName(int mode) {
        return switch (mode) {
            case Session.AUTO_ACKNOWLEDGE -> "AUTO";
            case Session.CLIENT_ACKNOWLEDGE -> "CLIENT";
            case Session.DUPS_OK_ACKNOWLEDGE -> "DUPS_OK";
            case Session.SESSION_TRANSACTED -> "TRANSACTED";
            default -> "mode " + mode;
        };
    }

    Thread start(String name) {
        Thread t = new Thread(this, name);
        t.start();
        return t;
    }

    void finish() {
        finished = true;
    }

    @Override
    public void run() {
        while (!finished) {
            Connection connection = null;
            try {
                connection = factory.createConnection();
                if (clientId != null) {
                    connection.setClientID(clientId);
                }
                connection.start();
                Session session = connection.createSession(mode == Session.SESSION_TRANSACTED, mode);
                consume(session, opener.open(session));
            } catch (JMSException | RuntimeException e) {
                reconnects++;
                LockSupport.parkNanos(RECONNECT_PAUSE.toNanos());
            } finally {
                Jms.closeQuietly(connection);
            }
        }
    }

    private void consume(Session session, MessageConsumer consumer) throws JMSException {
        boolean confirms = mode == Session.CLIENT_ACKNOWLEDGE || mode == Session.SESSION_TRANSACTED;
        List<String> unconfirmed = new ArrayList<>();
        Message last = null;
        int confirmEvery = 1 + random.nextInt(5);
        while (!finished) {
            Message m = consumer.receive(200);
            if (m != null) {
                tally.received(m);
                unconfirmed.add(Jms.id(m));
                last = m;
            }
            if (confirms && last != null && (unconfirmed.size() >= confirmEvery || m == null)) {
                try {
                    if (mode == Session.SESSION_TRANSACTED) {
                        session.commit();
                    } else {
                        last.acknowledge();
                    }
                } catch (JMSException | RuntimeException e) {
                    acknowledgeFailures++;
                    throw e;
                }
                tally.acknowledged(unconfirmed);
                unconfirmed.clear();
                last = null;
                confirmEvery = 1 + random.nextInt(5);
            }
        }
    }
}
