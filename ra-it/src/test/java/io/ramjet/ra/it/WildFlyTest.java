package io.ramjet.ra.it;

import java.nio.file.Path;
import java.util.List;

/** {@link AdapterScenarios} in WildFly's full profile, the adapter configured by jboss-cli. */
class WildFlyTest extends AdapterScenarios {

    @Override
    AppServer startServer(Path work, Path logs, String ramjetUrl) throws Exception {
        return WildFly.start(PayaraMicro.deployDir(), work, logs.resolve("wildfly.log"), ramjetUrl,
                "/ra-it-app/attempts", List.of(), List.of());
    }
}
