package io.ramjet.it;

import io.ramjet.server.embedded.EmbeddedBroker;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jms.core.JmsTemplate;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The application started by the test, so that the test orders it against a broker: closed before
 * the broker it talks to, or checked after its own broker is gone.
 */
public abstract class ExternalBrokerApplicationContract {

    /** The status code ("UP", "DOWN") the {@code ramjet} health indicator reports now. */
    protected abstract String ramjetHealth(ApplicationContext context);

    @Test
    void withAUrlTheApplicationUsesThatBrokerAndStartsNone() throws InterruptedException {
        try (EmbeddedBroker broker = EmbeddedBroker.start();
             ConfigurableApplicationContext application = new SpringApplicationBuilder(GreetingApplication.class)
                     .properties("spring.ramjet.url=ramjet://" + broker.nameServerAddress())
                     .run()) {
            assertEquals(0, application.getBeansOfType(EmbeddedBroker.class).size());
            application.getBean(JmsTemplate.class).convertAndSend(Greetings.QUEUE, "hello over the url");

            assertEquals("hello over the url", application.getBean(Greetings.class).next(Duration.ofSeconds(10)));
            assertEquals("UP", ramjetHealth(application));
        }
    }

    @Test
    void theEmbeddedBrokerStopsWithTheContext() {
        String nameServer;
        try (ConfigurableApplicationContext application = new SpringApplicationBuilder(GreetingApplication.class).run()) {
            nameServer = application.getBean(EmbeddedBroker.class).nameServerAddress();
        }
        int colon = nameServer.lastIndexOf(':');
        InetSocketAddress address = new InetSocketAddress(nameServer.substring(0, colon),
                Integer.parseInt(nameServer.substring(colon + 1)));

        assertThrows(IOException.class, () -> {
            try (Socket socket = new Socket()) {
                socket.connect(address, 1_000);
            }
        });
    }
}
