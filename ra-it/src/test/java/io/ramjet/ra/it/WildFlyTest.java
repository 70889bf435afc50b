package io.ramjet.ra.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link AdapterScenarios} in WildFly's full profile, the adapter configured by jboss-cli. */
class WildFlyTest extends AdapterScenarios {

    /**
     * The administrator's pooled factory, given recovery credentials, is registered for XA
     * recovery (IronJacamar says IJ020016 of a factory it leaves out); the adapter signs on as
     * that user.
     */
    @Test
    void administeredFactoryIsRegisteredForXaRecovery() {
        List<String> missing = appServer.process().linesSince(0).stream()
                .filter(line -> line.contains("IJ020016") && line.contains("java:/jms/ramjet/cf")).toList();

        assertEquals(List.of(), missing);
    }

    @Override
    AppServer startServer(Path work, Path logs, String ramjetUrl) throws Exception {
        return WildFly.start(PayaraMicro.deployDir(), work, logs.resolve("wildfly.log"), ramjetUrl,
                "/ra-it-app/attempts", List.of(), List.of());
    }
}
