package io.ramjet.client;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import javax.naming.Context;
import javax.naming.InitialContext;

/**
 * Runs in a child JVM whose class path holds only the shaded client jar, jakarta.jms-api,
 * slf4j-api and a directory with a {@code jndi.properties}: looks the factory and queue up in JNDI,
 * sends its argument and prints what it receives. Exits non-zero when unshaded Netty or Kryo is
 * visible or the shaded copies are missing.
 */
public final class ShadedClientProbe {

    private ShadedClientProbe() {
    }

    public static void main(String[] args) throws Exception {
        require(!present("io.netty.channel.Channel"), "unshaded Netty is on the class path");
        require(!present("com.esotericsoftware.kryo.Kryo"), "unshaded Kryo is on the class path");
        require(present("io.ramjet.shaded.io.netty.channel.Channel"), "shaded Netty is missing");
        require(present("io.ramjet.shaded.com.esotericsoftware.kryo.Kryo"), "shaded Kryo is missing");

        Context jndi = new InitialContext();
        ConnectionFactory factory = (ConnectionFactory) jndi.lookup("ConnectionFactory");
        Queue queue = (Queue) jndi.lookup("probe");
        try (JMSContext context = factory.createContext()) {
            context.createProducer().send(queue, args[0]);
            String body = context.createConsumer(queue).receiveBody(String.class, 10_000);
            System.out.println("received " + body);
        }
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, ShadedClientProbe.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static void require(boolean condition, String failure) {
        if (!condition) {
            System.out.println(failure);
            System.exit(2);
        }
    }
}
