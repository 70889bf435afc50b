package io.ramjet.server.standalone;

import io.ramjet.controller.ControllerConfig;
import io.ramjet.controller.ControllerNode;
import io.ramjet.protocol.RamjetVersion;
import io.ramjet.protocol.remoting.tls.KeyMaterial;
import io.ramjet.protocol.remoting.tls.ServerTls;
import io.ramjet.protocol.remoting.tls.ServerTls.ClientAuthMode;
import io.ramjet.controller.ClusterSecret;
import io.ramjet.server.config.NameServerSecret;
import io.ramjet.server.config.TlsSettings;
import io.ramjet.protocol.remoting.RemotingException;
import io.ramjet.server.broker.error.NetworkException;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import io.ramjet.server.broker.ha.ControlledBroker;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code bin/ramjet run standalone|namesrv|broker|controller [options]} (the distribution): starts the parts in
 * this JVM and serves until SIGTERM (or Ctrl-C), when a shutdown hook stops them in reverse
 * order, the broker cleanly (unregister, flush, checkpoint). {@code hash-password [user]} prints
 * a users file line for a password read from standard input.
 */
@Command(name = "ramjet-server", mixinStandardHelpOptions = true, versionProvider = Launcher.Version.class,
        description = "Ramjet NameServer and broker",
        subcommands = {Launcher.Standalone.class, Launcher.NameServerCommand.class, Launcher.BrokerCommand.class,
                Launcher.ControllerCommand.class, HashPassword.class})
public final class Launcher {

    private static final Logger LOG = LoggerFactory.getLogger(Launcher.class);

    /** What {@code -V} prints: the build's version. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"Ramjet " + RamjetVersion.VERSION};
        }
    }

    /** Exit code of a start refused for its configuration or an address in use. */
    static final int REFUSED = 2;

    public static void main(String[] args) {
        int code = commandLine().execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    /**
     * The commands, answering a start refused for its configuration or an address in use with
     * one line on the error stream (which key or port, and why) instead of a stack trace.
     */
    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new Launcher());
        commandLine.setExecutionExceptionHandler((e, command, parseResult) -> {
            if (!(e instanceof ConfigException || e instanceof RemotingException || e instanceof NetworkException
                    || e instanceof IOException
                    || e instanceof UncheckedIOException)) {
                throw e;
            }
            command.getErr().println("ramjet-server " + command.getCommandName() + ": " + oneLine(e));
            command.getErr().flush();
            return REFUSED;
        });
        return commandLine;
    }

    private static String oneLine(Exception e) {
        if (e instanceof NoSuchFileException) {
            return "no such file: " + e.getMessage();
        }
        if (e instanceof UncheckedIOException && e.getCause() != null) {
            return e.getMessage() + ": " + e.getCause();
        }
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    /** Options shared by the commands that start a broker, mixed into each. */
    static final class BrokerOptions {
        @Option(names = {"-c", "--config"}, description = "broker properties file")
        Path configFile;

        @Option(names = "--data-dir", description = "data directory (default ./data)")
        Path dataDir;

        @Option(names = {"-p", "--port"}, description = "broker port (default 10911)")
        Integer port;

        @Option(names = "--host", description = "address to bind (default 127.0.0.1; 0.0.0.0 for every interface)")
        String host;

        @Option(names = "--advertised-host", description = "address announced to clients (default: the bind host,"
                + " or this machine's canonical host name when binding a wildcard)")
        String advertisedHost;

        @Option(names = "--broker-name", description = "broker name")
        String brokerName;

        @Option(names = {"-s", "--set"}, paramLabel = "KEY=VALUE", mapFallbackValue = "",
                description = "any broker properties key (docs/configuration.md); over the file, under the"
                        + " flags above")
        Map<String, String> settings = new LinkedHashMap<>();

        /** Defaults, then the properties file, then {@code --set}, then the dedicated flags. */
        BrokerConfig config() throws IOException {
            return config(BrokerConfig.builder(Path.of("data")));
        }

        /** As {@link #config()}, from {@code builder}'s defaults instead of the broker's. */
        BrokerConfig config(BrokerConfigBuilder builder) throws IOException {
            if (configFile != null) {
                BrokerProperties.apply(BrokerProperties.read(configFile), builder);
            }
            BrokerProperties.apply(settings, builder);
            if (dataDir != null) {
                builder.dataDir(dataDir);
            }
            if (port != null) {
                builder.port(port);
            }
            if (host != null) {
                builder.host(host);
            }
            if (advertisedHost != null) {
                builder.advertisedHost(advertisedHost);
            }
            if (brokerName != null) {
                builder.brokerName(brokerName);
            }
            return BrokerProperties.build(builder);
        }
    }

    @Command(name = "standalone", mixinStandardHelpOptions = true,
            description = "NameServer and broker in one JVM, data in ./data: a laptop's setup")
    static final class Standalone implements Callable<Integer> {
        /**
         * A laptop's CommitLog segment unless {@code segmentSize} is set: each segment file is created
         * at its full size before the broker serves, and a broker's 1 GiB is a long first start and
         * a gigabyte of disk for a developer's few messages. Segments of another size already in
         * the data directory are read as they are.
         */
        static final int SEGMENT_SIZE = 64 << 20;

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
            BrokerConfigBuilder defaults = BrokerConfig.builder(Path.of("data"));
            defaults.store().segmentSize(SEGMENT_SIZE);
            BrokerConfig config = broker.config(defaults);
            NameServerSecret secret;
            if (secretFile != null) {
                secret = NameServerSecret.fromFile(secretFile);
            } else if (config.nameServerSecret() != null) {
                secret = config.nameServerSecret();
            } else {
                secret = SecretFile.readOrCreate(config.dataDir().resolve(SecretFile.NAME));
            }
            List<AutoCloseable> started = new ArrayList<>();
            // the broker beside it registers as the server starts: nothing to wait for
            NameServerConfig nameServerConfig = NameServerConfig.defaults().withRegistrationWindow(Duration.ZERO);
            ServerTls tls = config.tls().server();
            NameServer nameServer = new NameServer(nameServerConfig.withRemoting(nameServerConfig.remoting()
                    .withPort(nameServerPort).withHost(config.host()).withAdvertisedHost(config.advertisedHost())
                    .withTls(tls)).withSecret(secret));
            nameServer.start();
            started.add(nameServer);
            try {
                BrokerConfigBuilder registering = config.toBuilder().nameServers(List.of(nameServer.address()))
                        .nameServerSecret(secret);
                if (tls != null) {
                    registering.tls().outbound(true);
                    if (config.tls().trust() == null) {
                        trustOwnCertificate(registering.tls(), config.tls().key());
                    }
                }
                started.add(startBroker(registering.build()));
            } catch (Exception e) {
                nameServer.close();
                throw e;
            }
            return started;
        }
    }

    /**
     * Without a trust store the broker's connection to its own NameServer would check the
     * certificate against the JDK's CAs, which refuse a self-signed one (PKIX), so the broker could
     * never register. It trusts instead exactly the certificate of its own key, which the
     * NameServer beside it presents; the host name is then not checked, since only that key's
     * holder can present that certificate.
     */
    static void trustOwnCertificate(TlsSettings.Builder tls, KeyMaterial key) {
        if (key.keyStore() != null) {
            tls.trustStore(key.keyStore()).trustStorePassword(key.password());
        } else {
            tls.trustStore(key.certificateChain());
        }
        tls.verifyHostname(false);
    }

    /** The TLS of a NameServer's port, the broker keys of the same names spelled as flags. */
    static final class TlsOptions {
        @Option(names = "--tls-certificate", description = "PEM certificate chain the port presents (TLS on)")
        Path certificate;

        @Option(names = "--tls-private-key", description = "PEM PKCS#8 private key of --tls-certificate")
        Path privateKey;

        @Option(names = "--tls-key-store", description = "PKCS#12 or JKS key store instead of the PEM files")
        Path keyStore;

        @Option(names = "--tls-key-password", description = "password of the key store or encrypted key")
        String keyPassword;

        @Option(names = "--tls-client-auth", description = "none (default), optional or required")
        String clientAuth = "none";

        @Option(names = "--tls-trust-store", description = "CAs trusted for client certificates (PEM, PKCS#12, JKS)")
        Path trustStore;

        @Option(names = "--tls-trust-store-password", description = "password of the trust store")
        String trustStorePassword;

        @Option(names = "--tls-protocols", split = ",", description = "TLS versions accepted (default TLSv1.3,TLSv1.2)")
        List<String> protocols;

        @Option(names = "--tls-cipher-suites", split = ",",
                description = "cipher suites accepted (default: forward-secret AEAD suites only)")
        List<String> cipherSuites;

        /** The port's TLS, or null for a plain port. */
        ServerTls server() {
            try {
                return TlsSettings.builder().certificate(certificate).privateKey(privateKey).keyStore(keyStore)
                        .keyPassword(keyPassword).clientAuth(ClientAuthMode.parse(clientAuth)).trustStore(trustStore)
                        .trustStorePassword(trustStorePassword).protocols(protocols).cipherSuites(cipherSuites)
                        .build().server();
            } catch (IllegalArgumentException e) {
                throw new ConfigException("TLS options refused: " + e.getMessage(), e);
            }
        }
    }

    @Command(name = "namesrv", mixinStandardHelpOptions = true, description = "a NameServer")
    static final class NameServerCommand implements Callable<Integer> {
        @Option(names = {"-p", "--port"}, description = "port (default 9876)")
        int port = NameServerConfig.DEFAULT_PORT;

        @Option(names = "--host", description = "address to bind (default 127.0.0.1; 0.0.0.0 for every interface)")
        String host;

        @Option(names = "--advertised-host", description = "address announced as this NameServer's (default: the"
                + " bind host, or this machine's canonical host name when binding a wildcard)")
        String advertisedHost;

        @Option(names = "--secret-file", description = "file holding the secret brokers must prove to register "
                + "(default: none, any process may register a broker)")
        Path secretFile;

        @CommandLine.Mixin
        TlsOptions tls;

        @Option(names = "--controller-config", description = "a controller node's properties (controller.id,"
                + " controller.peers, controller.dataDir, ...): runs that node of the controller group in this JVM")
        Path controllerConfig;

        @Override
        public Integer call() throws Exception {
            return serveUntilStopped(List.of(start()));
        }

        /** The NameServer, started. */
        NameServer start() throws Exception {
            NameServerConfig config = NameServerConfig.defaults().withPort(port);
            config = config.withRemoting(config.remoting().withTls(tls.server()));
            if (host != null) {
                config = config.withRemoting(config.remoting().withHost(host));
            }
            if (advertisedHost != null) {
                config = config.withRemoting(config.remoting().withAdvertisedHost(advertisedHost));
            }
            NameServerSecret secret = secretFile == null ? null : NameServerSecret.fromFile(secretFile);
            if (secret != null) {
                config = config.withSecret(secret);
            }
            if (controllerConfig != null) {
                config = config.withController(controllerConfig(controllerConfig,
                        secret == null ? null : secret.clusterSecret()));
            }
            NameServer nameServer = new NameServer(config);
            nameServer.start();
            return nameServer;
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
                config = config.withNameServers(ValueType.list(nameServers));
            }
            return serveUntilStopped(List.of(startBroker(config)));
        }
    }

    @Command(name = "controller", mixinStandardHelpOptions = true,
            description = "a node of the controller group alone in its JVM")
    static final class ControllerCommand implements Callable<Integer> {
        @Option(names = {"-c", "--config"}, required = true, description = "the node's properties: controller.id,"
                + " controller.peers, controller.dataDir, ... (docs/high-availability.md)")
        Path configFile;

        @Override
        public Integer call() throws Exception {
            return serveUntilStopped(List.of(start()));
        }

        ControllerNode start() throws IOException {
            return ControllerNode.start(controllerConfig(configFile, null));
        }
    }

    /** A controller node's configuration from its properties file, a bad key as a configuration error. */
    static ControllerConfig controllerConfig(Path file, ClusterSecret otherwise) throws IOException {
        Properties properties = BrokerProperties.read(file);
        try {
            return ControllerConfig.fromProperties(properties, otherwise);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("controller configuration " + file + " refused: " + e.getMessage(), e);
        }
    }

    /** A broker, or in controller mode a {@link ControlledBroker} taking its role from the controllers. */
    private static AutoCloseable startBroker(BrokerConfig config) throws Exception {
        if (config.usersFile() == null && !config.access().usesJaas()) {
            LOG.warn("SECURITY: no usersFile is configured: every client connects anonymously and may send, consume"
                    + " and delete anything; fine on a laptop, not on a network (docs/security.md)");
        } else if (config.access().permissionsFile() == null) {
            LOG.warn("SECURITY: no permissionsFile is configured: every connection, authenticated or not, may send,"
                    + " consume and delete anything (docs/security.md)");
        }
        if (config.controllerMode().enabled()) {
            ControlledBroker controlled = new ControlledBroker(config);
            controlled.start();
            return controlled;
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
