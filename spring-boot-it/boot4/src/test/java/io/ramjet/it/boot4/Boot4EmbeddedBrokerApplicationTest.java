package io.ramjet.it.boot4;

import io.netty.util.Version;
import io.ramjet.it.EmbeddedBrokerApplicationContract;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.ApplicationContext;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Boot4EmbeddedBrokerApplicationTest extends EmbeddedBrokerApplicationContract {

    @Override
    protected String ramjetHealth(ApplicationContext context) {
        return context.getBean("ramjetHealthIndicator", HealthIndicator.class).health().getStatus().getCode();
    }

    @Test
    void theApplicationRunsOnBootsNetty42WhileTheClientKeepsItsOwn() throws ClassNotFoundException {
        assertTrue(Version.identify().get("netty-common").artifactVersion().startsWith("4.2."),
                Version.identify().toString());
        Class<?> applications = Class.forName("io.netty.channel.MultiThreadIoEventLoopGroup");
        Class<?> clients = Class.forName("io.ramjet.shaded.io.netty.channel.MultiThreadIoEventLoopGroup");
        assertNotEquals(applications.getProtectionDomain().getCodeSource().getLocation(),
                clients.getProtectionDomain().getCodeSource().getLocation());
    }
}
