package io.ramjet.it.boot4;

import io.netty.util.Version;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.core.JmsTemplate;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** No {@code spring.ramjet.url} and the embedded server on the class path: the application runs its own broker. */
@SpringBootTest
class EmbeddedBrokerApplicationTest {

    @Autowired
    JmsTemplate jms;

    @Autowired
    Greetings greetings;

    @Autowired
    ApplicationContext context;

    @Autowired
    @Qualifier("ramjetHealthIndicator")
    HealthIndicator health;

    @Test
    void aJmsTemplateSendReachesTheJmsListener() throws InterruptedException {
        jms.convertAndSend(Greetings.QUEUE, "hello from Boot 4.0");

        assertEquals("hello from Boot 4.0", greetings.next(Duration.ofSeconds(10)));
    }

    @Test
    void theConnectionFactoryIsCachingAndTheBrokerEmbedded() {
        assertInstanceOf(CachingConnectionFactory.class, context.getBean(ConnectionFactory.class));
        assertEquals(1, context.getBeansOfType(EmbeddedBroker.class).size());
    }

    @Test
    void healthIsUp() {
        assertEquals(Status.UP, health.health().getStatus());
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
