package io.ramjet.reliability;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

import java.io.PrintStream;

/**
 * A consumer in a JVM of its own, for {@link GroupConsumerKillTest} to kill: receives from a queue
 * in CLIENT_ACKNOWLEDGE mode and, for each message, prints {@code group seq redelivered} on
 * standard output before it acknowledges it, so every message acknowledged was printed.
 * Arguments: the URL and the queue.
 */
public final class GroupConsumerChild {

    private GroupConsumerChild() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        try (Connection connection = new RamjetConnectionFactory(args[0]).createConnection()) {
            Session session = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(args[1]));
            connection.start();
            out.println("ready");
            out.flush();
            while (true) {
                Message m = consumer.receive(60_000);
                if (m == null) {
                    return;
                }
                out.println(m.getStringProperty("JMSXGroupID") + " " + m.getIntProperty("JMSXGroupSeq") + " "
                        + m.getJMSRedelivered());
                out.flush();
                m.acknowledge();
            }
        }
    }
}
