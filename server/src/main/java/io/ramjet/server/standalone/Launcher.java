package io.ramjet.server.standalone;

import io.ramjet.protocol.remoting.NameServerSecret;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java -jar ramjet-server.jar standalone|namesrv|broker [options]}: starts the parts in
 * this JVM and serves until SIGTERM (or Ctrl-C), when a shutdown hook stops them in reverse
 * order, the broker cleanly (unregister, flush, checkpoint). {@code hash-password [user]} prints
 * a users file line for a password read from standard input.
 */
@Command(name = "ramjet-server", mixinStandardHelpOptions = true, version = "Ramjet 0.1.0",
        description = "Ramjet NameServer and broker",
        subcommands = {Launcher.Standalone.class, Launcher.NameServerCommand.class, Launcher.BrokerCommand.class,
                HashPassword.class})
public final class Launcher {

    private static final Logger LOG = LoggerFactory.getLogger(Launcher.class);

    public static void main(String[] args) {
        int code = new CommandLine(new Launcher()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Options shared by the commands that start a broker, mixed into each. */
    static final class BrokerOptions {
        @Option(names = {"-c", "--config"}, description = "broker properties file")
        Path configFile;

        @Option(names = "--data-dir", description = "data directory (default ./data)")
        Path dataDir;

        @Option(names = {"-p", "--port"}, description = "broker port (default 10911)")
        Integer port;

        @Option(names = "--host", description = "address to bind and announce (default 127.0.0.1)")
        String host;

        @Option(names = "--broker-name", description = "broker name")
        String brokerName;

        BrokerConfig config() throws Exception {
            Path data = dataDir != null ? dataDir : Path.of("data");
            BrokerConfig c = configFile != null ? BrokerProperties.load(configFile, data) : BrokerConfig.defaults(data);
            if (dataDir != null) {
                c = c.withDataDir(dataDir);
            }
            if (port != null) {
                c = c.withPort(port);
            }
            if (host != null) {
                c = c.withHost(host);
            }
            if (brokerName != null) {
                c = c.withBrokerName(brokerName);
            }
            return c;
        }
    }

    @Command(name = "standalone", mixinStandardHelpOptions = true,
            description = "NameServer and broker in one JVM, data in ./data: a laptop's setup")
    static final class Standalone implements Callable<Integer> {
        @CommandLine.Mixin
        BrokerOptions broker;

        @Option(names = "--namesrv-port", description = "NameServer port (default 9876)")
        int nameServerPort = NameServerConfig.DEFAULT_PORT;

        @Option(names = "--secret-file", description = "file holding the secret brokers prove to the NameServer "
                + "(default: the broker's nameServerSecret, else one generated into <data-dir>/" + SecretFile.NAME + ")")
        Path secretFile;

        @Override
        public Integer call() throws Exception {
            return serveUntilStopped(start());
        }

        /** The NameServer, then the broker registering with it under one secret. */
        List<AutoCloseable> start() throws Exception {
            BrokerConfig config = broker.config();
            NameServerSecret secret;
            if (secretFile != null) {
                secret = NameServerSecret.fromFile(secretFile);
            } else if (config.nameServerSecret() != null) {
                secret = config.nameServerSecret();
            } else {
                secret = SecretFile.readOrCreate(config.dataDir().resolve(SecretFile.NAME));
            }
            List<AutoCloseable> started = new ArrayList<>();
            NameServer nameServer = new NameServer(NameServerConfig.defaults().withPort(nameServerPort)
                    .withSecret(secret));
            nameServer.start();
            started.add(nameServer);
            try {
                started.add(startBroker(config.withNameServers(List.of(nameServer.address()))
                        .withNameServerSecret(secret)));
            } catch (Exception e) {
                nameServer.close();
                throw e;
            }
            return started;
        }
    }

    @Command(name = "namesrv", mixinStandardHelpOptions = true, description = "a NameServer")
    static final class NameServerCommand implements Callable<Integer> {
        @Option(names = {"-p", "--port"}, description = "port (default 9876)")
        int port = NameServerConfig.DEFAULT_PORT;

        @Option(names = "--host", description = "address to bind (default 127.0.0.1)")
        String host;

        @Option(names = "--secret-file", description = "file holding the secret brokers must prove to register "
                + "(default: none, any process may register a broker)")
        Path secretFile;

        @Override
        public Integer call() throws Exception {
            NameServerConfig config = NameServerConfig.defaults().withPort(port);
            if (host != null) {
                config = config.withRemoting(config.remoting().withHost(host));
            }
            if (secretFile != null) {
                config = config.withSecret(NameServerSecret.fromFile(secretFile));
            }
            NameServer nameServer = new NameServer(config);
            nameServer.start();
            return serveUntilStopped(List.of(nameServer));
        }
    }

    @Command(name = "broker", mixinStandardHelpOptions = true,
            description = "a broker registering with the given NameServers")
    static final class BrokerCommand implements Callable<Integer> {
        @CommandLine.Mixin
        BrokerOptions broker;

        @Option(names = {"-n", "--namesrv"}, description = "NameServers, host:port[,host:port]")
        String nameServers;

        @Override
        public Integer call() throws Exception {
            BrokerConfig config = broker.config();
            if (nameServers != null) {
                config = config.withNameServers(BrokerProperties.list(nameServers));
            }
            return serveUntilStopped(List.of(startBroker(config)));
        }
    }

    private static Broker startBroker(BrokerConfig config) throws Exception {
        if (config.usersFile() == null) {
            LOG.warn("SECURITY: no usersFile is configured: every client connects anonymously and may send, consume"
                    + " and delete anything; fine on a laptop, not on a network (README, Security)");
        }
        Broker broker = new Broker(config);
        broker.start();
        return broker;
    }

    private static int serveUntilStopped(List<AutoCloseable> started) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("stopping");
            for (int i = started.size() - 1; i >= 0; i--) {
                try {
                    started.get(i).close();
                } catch (Exception e) {
                    LOG.error("stopping {} failed", started.get(i), e);
                }
            }
            stopped.countDown();
        }, "ramjet-shutdown"));
        LOG.info("started; stop with SIGTERM or Ctrl-C");
        stopped.await();
        return 0;
    }
}
