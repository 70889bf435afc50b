package io.ramjet.server.embedded;

import io.ramjet.protocol.remoting.RemotingException;
import io.ramjet.server.broker.error.NetworkException;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A NameServer and a broker in this JVM on ephemeral ports of 127.0.0.1, for tests and samples:
 * <pre>{@code
 * try (EmbeddedBroker broker = EmbeddedBroker.start()) {
 *     ConnectionFactory factory = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress());
 *     ...
 * }
 * }</pre>
 * With no data directory given it uses a temporary one and deletes it on {@link #close()}.
 */
public final class EmbeddedBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedBroker.class);
    private static final int EMBEDDED_SEGMENT_SIZE = 64 << 20;

    private final NameServer nameServer;
    private final Broker broker;
    private final Path temporaryDir;

    private EmbeddedBroker(NameServer nameServer, Broker broker, Path temporaryDir) {
        this.nameServer = nameServer;
        this.broker = broker;
        this.temporaryDir = temporaryDir;
    }

    /** Starts on a fresh temporary data directory, deleted on close. */
    public static EmbeddedBroker start() {
        return start(UnaryOperator.identity());
    }

    /**
     * Starts on a fresh temporary data directory, deleted on close, with the broker configuration
     * adjusted by {@code tuning} (say, a users file, or any key through {@link BrokerConfig#toBuilder()});
     * port and NameServer are set afterwards.
     */
    public static EmbeddedBroker start(UnaryOperator<BrokerConfig> tuning) {
        try {
            return start(Files.createTempDirectory("ramjet-embedded-"), true, tuning);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary data directory", e);
        }
    }

    /** Starts on the given data directory, kept on close, so a test can restart on it. */
    public static EmbeddedBroker start(Path dataDir) {
        return start(dataDir, false, UnaryOperator.identity());
    }

    /**
     * Starts on the given data directory with the broker configuration adjusted by
     * {@code tuning} (say, fewer deliveries before the dead-letter queue); port and NameServer are set afterwards.
     */
    public static EmbeddedBroker start(Path dataDir, UnaryOperator<BrokerConfig> tuning) {
        return start(dataDir, false, tuning);
    }

    private static EmbeddedBroker start(Path dataDir, boolean temporary, UnaryOperator<BrokerConfig> tuning) {
        // its one broker registers before anyone asks: nothing to wait for after start
        NameServer nameServer = new NameServer(NameServerConfig.defaults().withPort(0)
                .withRegistrationWindow(Duration.ZERO));
        Broker broker = null;
        try {
            nameServer.start();
            BrokerConfig config = tuning.apply(defaults(dataDir)).toBuilder()
                    .port(0)
                    .nameServers(List.of(nameServer.address()))
                    .build();
            broker = new Broker(config);
            broker.start();
            return new EmbeddedBroker(nameServer, broker, temporary ? dataDir : null);
        } catch (RemotingException | NetworkException | RuntimeException e) {
            if (broker != null) {
                broker.close();
            }
            nameServer.close();
            if (temporary) {
                deleteRecursively(dataDir);
            }
            throw new IllegalStateException("embedded broker failed to start", e);
        }
    }

    /** The defaults of a broker in a test: {@link BrokerConfig#defaults} with 64 MiB segments. */
    static BrokerConfig defaults(Path dataDir) {
        BrokerConfigBuilder builder = BrokerConfig.builder(dataDir);
        builder.store().segmentSize(EMBEDDED_SEGMENT_SIZE);
        return builder.build();
    }

    /** {@code 127.0.0.1:port} of the NameServer: what a {@code ramjet://} URL names. */
    public String nameServerAddress() {
        return nameServer.address();
    }

    /** {@code 127.0.0.1:port} of the broker. */
    public String brokerAddress() {
        return broker.address();
    }

    public Broker broker() {
        return broker;
    }

    /** Stops the broker (cleanly: checkpoint) and the NameServer; deletes a temporary data directory. */
    @Override
    public void close() {
        try {
            broker.close();
            nameServer.close();
        } finally {
            if (temporaryDir != null) {
                deleteRecursively(temporaryDir);
            }
        }
    }

    static void deleteRecursively(Path root) {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            LOG.warn("could not delete {}: {}", root, e.toString());
        }
    }
}
