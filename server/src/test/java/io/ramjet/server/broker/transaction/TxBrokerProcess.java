package io.ramjet.server.broker.transaction;

import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.storage.StoreConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A broker in a child JVM for the crash tests: checks back only after an hour, so whatever it
 * holds when killed is still undecided; prints its port, then serves until killed. Arguments:
 * the data directory, the checkpoint interval in ms and, optionally, the maximum record size.
 */
public final class TxBrokerProcess {

    private TxBrokerProcess() {
    }

    public static void main(String[] args) throws Exception {
        BrokerConfig config = BrokerConfig.defaults(Path.of(args[0])).withPort(0).withNameServers(List.of())
                .withQueuesPerDestination(2).withTransactionChecks(Duration.ofHours(1), Duration.ofSeconds(1), 15);
        Broker broker = new Broker(config, StoreConfig.defaults(config.dataDir()).withSegmentSize(4 << 20)
                .withMinFreeSpace(0).withCheckpointInterval(Duration.ofMillis(Long.parseLong(args[1])))
                .withMaxRecordSize(args.length > 2 ? Integer.parseInt(args[2]) : StoreConfig.DEFAULT_MAX_RECORD_SIZE));
        broker.start();
        System.out.println("PORT " + broker.port());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
