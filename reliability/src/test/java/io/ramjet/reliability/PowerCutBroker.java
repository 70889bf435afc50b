package io.ramjet.reliability;

import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The child process of a power-cut test: a NameServer and a broker in one JVM, as
 * {@code Launcher standalone} runs them, whose every force is copied by a {@link ShadowFiles}
 * recorder, so that after a {@code kill -9} the test can put every broker file back as a power
 * cut would have left it ({@link PowerCut}). Small segments and a short checkpoint interval, so
 * that cuts meet segment rolls, checkpoints and snapshots too.
 *
 * <p>Arguments: NameServer port, broker port, data directory, shadow directory.
 */
public final class PowerCutBroker {

    private PowerCutBroker() {
    }

    public static void main(String[] args) throws Exception {
        int nameServerPort = Integer.parseInt(args[0]);
        int brokerPort = Integer.parseInt(args[1]);
        Path dataDir = Path.of(args[2]);
        Path shadowDir = Path.of(args[3]);
        NameServer nameServer = new NameServer(NameServerConfig.defaults().withPort(nameServerPort)
                .withRegistrationWindow(Duration.ZERO));
        nameServer.start();
        BrokerConfigBuilder config = BrokerConfig.builder(dataDir).port(brokerPort)
                .nameServers(List.of(nameServer.address()));
        config.store().segmentSize(1 << 20).checkpointInterval(Duration.ofMillis(300))
                .forceRecorder(new ShadowFiles(dataDir, shadowDir));
        Broker broker = new Broker(config.build());
        broker.start();
        new CountDownLatch(1).await(); // until killed
    }
}
