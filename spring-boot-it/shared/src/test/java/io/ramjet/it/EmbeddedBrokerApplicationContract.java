package io.ramjet.it;

import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.core.JmsTemplate;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * No {@code spring.ramjet.url} and the embedded server on the class path: the application runs its
 * own broker. Each Boot version's module runs this with its own Actuator types.
 */
@SpringBootTest(classes = GreetingApplication.class)
public abstract class EmbeddedBrokerApplicationContract {

    @Autowired
    JmsTemplate jms;

    @Autowired
    Greetings greetings;

    @Autowired
    ApplicationContext context;

    /** The status code ("UP", "DOWN") the {@code ramjet} health indicator reports now. */
    protected abstract String ramjetHealth(ApplicationContext context);

    @Test
    void aJmsTemplateSendReachesTheJmsListener() throws InterruptedException {
        jms.convertAndSend(Greetings.QUEUE, "hello from " + getClass().getSimpleName());

        assertEquals("hello from " + getClass().getSimpleName(), greetings.next(Duration.ofSeconds(10)));
    }

    @Test
    void theConnectionFactoryIsCachingAndTheBrokerEmbedded() {
        assertInstanceOf(CachingConnectionFactory.class, context.getBean(ConnectionFactory.class));
        assertEquals(1, context.getBeansOfType(EmbeddedBroker.class).size());
    }

    @Test
    void healthIsUp() {
        assertEquals("UP", ramjetHealth(context));
    }
}
