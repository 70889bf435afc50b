package io.ramjet.tck;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.broker.security.PasswordHash;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.ConnectionFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Ramjet's embedded NameServer and Broker in this JVM (temporary data directory, real sockets),
 * with one user ({@link ProviderUnderTest#USER}) and anonymous connections allowed, as Artemis is set up.
 */
final class RamjetProvider implements ProviderUnderTest {

    private Path usersFile;
    private EmbeddedBroker broker;
    private RamjetConnectionFactory factory;

    @Override
    public String name() {
        return "Ramjet";
    }

    @Override
    public void start() {
        try {
            usersFile = Files.createTempFile("ramjet-tck-users-", ".properties");
            Files.writeString(usersFile, USER + " = " + PasswordHash.of(PASSWORD.toCharArray()).encoded() + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the users file", e);
        }
        broker = EmbeddedBroker.start(c -> c.withSecurity(usersFile, true));
        factory = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress());
    }

    @Override
    public ConnectionFactory connectionFactory() {
        return factory;
    }

    @Override
    public void close() {
        broker.close();
        try {
            Files.deleteIfExists(usersFile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
