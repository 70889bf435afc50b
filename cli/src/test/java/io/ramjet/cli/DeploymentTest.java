package io.ramjet.cli;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.broker.BrokerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.function.UnaryOperator;

/** A test class whose every test gets a fresh {@link Deployment}: its factory and its CLI. */
abstract class DeploymentTest {

    Deployment deployment;
    RamjetConnectionFactory factory;
    Cli cli;

    /** How the test class tunes its broker; none by default. */
    UnaryOperator<BrokerConfig> tuning() {
        return UnaryOperator.identity();
    }

    @BeforeEach
    void startDeployment() {
        deployment = Deployment.start(tuning());
        factory = deployment.factory;
        cli = deployment.cli;
    }

    @AfterEach
    void stopDeployment() {
        deployment.close();
    }
}
