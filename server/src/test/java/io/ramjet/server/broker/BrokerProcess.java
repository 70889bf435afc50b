package io.ramjet.server.broker;

import java.nio.file.Path;

/** A broker in a child JVM for crash tests: prints its port, then serves until killed. */
public final class BrokerProcess {

    private BrokerProcess() {
    }

    public static void main(String[] args) throws Exception {
        Broker broker = BrokerTestSupport.start(BrokerTestSupport.config(Path.of(args[0])));
        System.out.println("PORT " + broker.port());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
