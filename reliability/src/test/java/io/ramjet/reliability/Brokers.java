package io.ramjet.reliability;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The child brokers of a test class, killed and removed after each test ({@link #perTest}, in a
 * {@code @RegisterExtension} field) or after the class ({@link #perClass}, in a static one), with
 * the tail of each one's log printed when a test failed.
 */
final class Brokers implements AfterEachCallback, AfterAllCallback {

    private final List<BrokerProcess> started = new ArrayList<>();
    private final boolean perClass;

    private Brokers(boolean perClass) {
        this.perClass = perClass;
    }

    static Brokers perTest() {
        return new Brokers(false);
    }

    static Brokers perClass() {
        return new Brokers(true);
    }

    /** A started broker with the default configuration but for {@code properties}. */
    synchronized BrokerProcess start(String name, Properties properties) throws IOException {
        BrokerProcess broker = new BrokerProcess(name, null, properties);
        started.add(broker);
        broker.start();
        return broker;
    }

    /** A broker on a given data directory, not started yet; it is still killed at the end. */
    synchronized BrokerProcess create(String name, java.nio.file.Path dataDir, Properties properties)
            throws IOException {
        BrokerProcess broker = new BrokerProcess(name, dataDir, properties);
        started.add(broker);
        return broker;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (perClass) {
            printTailsIfFailed(context);
        } else {
            closeAll(context);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        closeAll(context);
    }

    private synchronized void closeAll(ExtensionContext context) {
        printTailsIfFailed(context);
        for (BrokerProcess broker : started) {
            broker.close();
        }
        started.clear();
    }

    private synchronized void printTailsIfFailed(ExtensionContext context) {
        if (context.getExecutionException().isPresent()) {
            for (BrokerProcess broker : started) {
                System.out.println("---- tail of " + broker.logFile() + "\n" + broker.logTail(60) + "\n----");
            }
        }
    }

    static Properties properties(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }
}
