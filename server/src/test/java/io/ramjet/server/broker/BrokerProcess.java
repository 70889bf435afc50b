package io.ramjet.server.broker;

import java.nio.file.Path;
import java.util.List;

/**
 * A broker in a child JVM for crash tests: prints its port, then serves until killed. Arguments:
 * the data directory, then optionally the NameServers to register with, comma-separated.
 */
public final class BrokerProcess {

    private BrokerProcess() {
    }

    public static void main(String[] args) throws Exception {
        BrokerConfig config = BrokerTestSupport.config(Path.of(args[0]));
        if (args.length > 1) {
            config = config.withNameServers(List.of(args[1].split(",")));
        }
        Broker broker = BrokerTestSupport.start(config);
        System.out.println("PORT " + broker.port());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
