package io.ramjet.it.boot3;

import io.netty.util.Version;
import io.ramjet.it.EmbeddedBrokerApplicationContract;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.context.ApplicationContext;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Boot3EmbeddedBrokerApplicationTest extends EmbeddedBrokerApplicationContract {

    @Override
    protected String ramjetHealth(ApplicationContext context) {
        return context.getBean("ramjetHealthIndicator", HealthIndicator.class).health().getStatus().getCode();
    }

    /** The application runs on Boot's Netty 4.1, without Netty 4.2's MultiThreadIoEventLoopGroup, which the client must not need. */
    @Test
    void theApplicationRunsOnBootsNetty41() {
        assertTrue(Version.identify().get("netty-common").artifactVersion().startsWith("4.1."),
                Version.identify().toString());
        assertThrows(ClassNotFoundException.class, () -> Class.forName("io.netty.channel.MultiThreadIoEventLoopGroup"));
    }
}
