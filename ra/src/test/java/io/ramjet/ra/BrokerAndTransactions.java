package io.ramjet.ra;

import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.transaction.TransactionManager;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** What the outbound tests run over: a real embedded broker per class, Narayana as the JTA transaction manager. */
abstract class BrokerAndTransactions {

    @TempDir
    static Path txStore;

    static EmbeddedBroker broker;
    static TransactionManager transactions;

    @BeforeAll
    static void start() {
        broker = EmbeddedBroker.start();
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
