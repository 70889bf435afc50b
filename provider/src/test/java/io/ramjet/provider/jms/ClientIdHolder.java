package io.ramjet.provider.jms;

import jakarta.jms.Connection;

/**
 * A JMS connection in a child JVM that sets a client id, prints "HELD", then holds it until
 * killed. Arguments: the {@code ramjet://} URL and the client id.
 */
public final class ClientIdHolder {

    private ClientIdHolder() {
    }

    public static void main(String[] args) throws Exception {
        Connection connection = new RamjetConnectionFactory(args[0]).createConnection();
        connection.setClientID(args[1]);
        System.out.println("HELD");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
