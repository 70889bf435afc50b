package io.ramjet.server.broker.security;

import io.ramjet.server.broker.Broker;
import io.ramjet.server.standalone.BrokerProperties;

import java.nio.file.Path;

/**
 * A {@link SecuredDeployment} broker in a child JVM, for the tests that kill it: prints its port,
 * then serves until killed. Argument: the deployment's broker.properties.
 */
public final class SecuredBrokerProcess {

    private SecuredBrokerProcess() {
    }

    public static void main(String[] args) throws Exception {
        Path properties = Path.of(args[0]);
        Broker broker = new Broker(BrokerProperties.load(properties, properties.resolveSibling("data")));
        broker.start();
        System.out.println("PORT " + broker.port());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
