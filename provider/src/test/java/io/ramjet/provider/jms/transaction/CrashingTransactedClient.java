package io.ramjet.provider.jms.transaction;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;

/**
 * Child JVM of {@link TransactionCrashTest}: in one transacted session, consumes one message
 * from queue {@code in} and sends three to queue {@code out}, prints {@code READY}, then waits
 * to be killed without ever committing. Arguments: NameServer address, in, out.
 */
public final class CrashingTransactedClient {

    private CrashingTransactedClient() {
    }

    public static void main(String[] args) throws Exception {
        Connection connection = new RamjetConnectionFactory("ramjet://" + args[0]).createConnection();
        connection.start();
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        Queue in = tx.createQueue(args[1]);
        Queue out = tx.createQueue(args[2]);
        Message consumed = tx.createConsumer(in).receive(10_000);
        if (consumed == null) {
            System.out.println("NOTHING");
            return;
        }
        MessageProducer producer = tx.createProducer(out);
        for (int i = 0; i < 3; i++) {
            producer.send(tx.createTextMessage("uncommitted " + i));
        }
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
