package io.ramjet.ra;

import io.ramjet.server.broker.security.PasswordHash;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.transaction.TransactionManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the outbound tests run over: a real embedded broker per class, Narayana as the JTA
 * transaction manager. The broker admits anonymous connections and knows two users,
 * {@code alice} and {@code eve} (password {@link #PASSWORD}), with every right.
 */
abstract class BrokerAndTransactions {

    static final String PASSWORD = "secret";

    @TempDir
    static Path txStore;
    @TempDir
    static Path security;

    static EmbeddedBroker broker;
    static TransactionManager transactions;

    @BeforeAll
    static void start() throws IOException {
        String hash = PasswordHash.of(PASSWORD.toCharArray()).encoded();
        Path users = Files.writeString(security.resolve("users.properties"), "alice = " + hash + "\neve = " + hash + "\n");
        broker = EmbeddedBroker.start(c -> c.withSecurity(users, true));
        transactions = Narayana.transactionManager(txStore);
    }

    @AfterAll
    static void stop() throws Exception {
        broker.close();
        Narayana.delete(txStore);
    }

    static String url() {
        return "ramjet://" + broker.nameServerAddress();
    }
}
