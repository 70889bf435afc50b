package io.ramjet.ra.it;

import java.nio.file.Path;

/** {@link AdapterScenarios} in Payara Micro 7, the adapter configured by a post-boot command. */
class PayaraMicroTest extends AdapterScenarios {

    @Override
    AppServer startServer(Path work, Path logs, String ramjetUrl) throws Exception {
        return PayaraMicro.start(PayaraMicro.deployDir(), work, logs.resolve("payara-micro.log"), ramjetUrl,
                "/ra-it-app/attempts");
    }
}
