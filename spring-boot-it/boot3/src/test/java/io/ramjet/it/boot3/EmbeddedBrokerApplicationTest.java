package io.ramjet.it.boot3;

import io.netty.util.Version;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.core.JmsTemplate;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
        jms.convertAndSend(Greetings.QUEUE, "hello from Boot 3.5");

        assertEquals("hello from Boot 3.5", greetings.next(Duration.ofSeconds(10)));
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
    void theApplicationRunsOnBootsNetty41() {
        assertTrue(Version.identify().get("netty-common").artifactVersion().startsWith("4.1."),
                Version.identify().toString());
        assertThrows(ClassNotFoundException.class, () -> Class.forName("io.netty.channel.MultiThreadIoEventLoopGroup"));
    }
}
