package io.ramjet.tck;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.broker.security.AccessConfig;
import io.ramjet.server.broker.security.Operation;
import io.ramjet.server.broker.security.PasswordHash;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.ConnectionFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Ramjet's embedded NameServer and Broker in this JVM (temporary data directory, real sockets),
 * with the users and roles Artemis is set up with: {@link ProviderUnderTest#USER} and anonymous
 * connections may do everything, {@link ProviderUnderTest#READER} consume, browse and make
 * temporary destinations.
 */
final class RamjetProvider implements ProviderUnderTest {

    private Path security;
    private EmbeddedBroker broker;
    private RamjetConnectionFactory factory;

    @Override
    public String name() {
        return "Ramjet";
    }

    @Override
    public void start() {
        Path users;
        Path roles;
        Path permissions;
        try {
            security = Files.createTempDirectory("ramjet-tck-security-");
            users = Files.writeString(security.resolve("users.properties"),
                    USER + " = " + PasswordHash.of(PASSWORD.toCharArray()).encoded() + "\n"
                            + READER + " = " + PasswordHash.of(READER_PASSWORD.toCharArray()).encoded() + "\n");
            roles = Files.writeString(security.resolve("roles.properties"),
                    "everything = " + USER + "\nreaders = " + READER + "\n");
            StringBuilder rules = new StringBuilder();
            for (Operation operation : Operation.values()) {
                rules.append(operation.configName()).append(" # = everything");
                if (operation == Operation.CONSUME || operation == Operation.BROWSE
                        || operation == Operation.CREATE_TEMPORARY) {
                    rules.append(", readers");
                }
                rules.append('\n');
            }
            permissions = Files.writeString(security.resolve("permissions.properties"), rules);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the security files", e);
        }
        broker = EmbeddedBroker.start(c -> c.withSecurity(users, true).withAccess(
                new AccessConfig(roles, permissions, null, AccessConfig.DEFAULT_JAAS_ENTRY, Set.of("everything"))));
        factory = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress());
    }

    @Override
    public ConnectionFactory connectionFactory() {
        return factory;
    }

    @Override
    public void close() {
        broker.close();
        try (Stream<Path> files = Files.list(security)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
            Files.delete(security);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
