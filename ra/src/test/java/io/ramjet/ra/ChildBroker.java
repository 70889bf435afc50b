package io.ramjet.ra;

import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.storage.StoreConfig;
import java.nio.file.Path;
import java.util.List;

/**
 * Child JVM of {@link OnePhaseAfterBrokerKillTest}: a broker on a data directory and port,
 * registered with a NameServer of the test; prints {@code READY <address>} once it serves, then
 * serves until killed. Arguments: data directory, port (0 for any), NameServer address.
 */
public final class ChildBroker {

    private ChildBroker() {
    }

    public static void main(String[] args) throws Exception {
        Path data = Path.of(args[0]);
        BrokerConfig config = BrokerConfig.defaults(data).withPort(Integer.parseInt(args[1]))
                .withNameServers(List.of(args[2]));
        Broker broker = new Broker(config, StoreConfig.defaults(data).withSegmentSize(64 << 20));
        broker.start();
        System.out.println("READY " + broker.address());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
