package io.ramjet.samples;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import java.util.Hashtable;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the connection factory and the queue by JNDI name, as a Jakarta EE application would:
 * {@code new InitialContext()} reads {@code jndi.properties} from the classpath (this sample's is
 * in {@code src/main/resources}), which names Ramjet's {@code InitialContextFactory}, the
 * NameServer URL, a factory {@code ConnectionFactory} and a queue {@code orders}. Nothing in the
 * code names Ramjet. An environment passed to {@code InitialContext} overrides the file entry by entry.
 * <pre>
 * mvn -q -pl samples exec:java -Dexec.mainClass=io.ramjet.samples.JndiLookup [-Dexec.args=ramjet://host:9876]
 * </pre>
 */
public final class JndiLookup {

    private static final Logger LOG = LoggerFactory.getLogger(JndiLookup.class);

    public static final String FACTORY_NAME = "ConnectionFactory";
    public static final String QUEUE_NAME = "orders";

    private JndiLookup() {
    }

    /** With an argument, that URL replaces the {@code java.naming.provider.url} of {@code jndi.properties}. */
    public static void main(String[] args) throws NamingException {
        Hashtable<String, Object> environment = new Hashtable<>();
        if (args.length > 0) {
            environment.put(Context.PROVIDER_URL, args[0]);
        }
        System.out.println("received: " + sendAndReceive(environment, "order 42"));
    }

    /**
     * Looks up {@value #FACTORY_NAME} and {@value #QUEUE_NAME}, sends {@code text} to the queue
     * and receives it back.
     *
     * @param environment entries that override {@code jndi.properties}; may be empty
     * @return the text received, or {@code null} if nothing arrived within five seconds
     */
    public static String sendAndReceive(Hashtable<?, ?> environment, String text) throws NamingException {
        Context jndi = new InitialContext(environment);
        try {
            ConnectionFactory factory = (ConnectionFactory) jndi.lookup(FACTORY_NAME);
            Queue queue = (Queue) jndi.lookup(QUEUE_NAME);
            LOG.info("looked up {} and {} ({})", FACTORY_NAME, QUEUE_NAME, queue);
            try (JMSContext context = factory.createContext()) {
                context.createProducer().send(queue, text);
                LOG.info("sent '{}' to {}", text, queue);
                return context.createConsumer(queue).receiveBody(String.class, 5_000);
            }
        } finally {
            jndi.close();
        }
    }
}
