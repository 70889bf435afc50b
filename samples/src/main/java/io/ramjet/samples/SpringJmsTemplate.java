package io.ramjet.samples;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.MessageListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.jms.listener.DefaultMessageListenerContainer;

/**
 * Ramjet under Spring Framework's JMS support, configured in plain Java (no Spring Boot): a
 * {@link JmsTemplate} over a {@link CachingConnectionFactory} sends and receives, and a
 * {@link DefaultMessageListenerContainer} delivers another queue's messages to a listener.
 * Both sit on a {@link RamjetConnectionFactory}, the only Ramjet class named.
 * <pre>
 * mvn -q -pl samples exec:java -Dexec.mainClass=io.ramjet.samples.SpringJmsTemplate [-Dexec.args=ramjet://host:9876]
 * </pre>
 */
public final class SpringJmsTemplate {

    private static final Logger LOG = LoggerFactory.getLogger(SpringJmsTemplate.class);

    public static final String DEFAULT_URL = "ramjet://127.0.0.1:9876";
    public static final String TEMPLATE_QUEUE = "samples.spring.template";
    public static final String LISTENER_QUEUE = "samples.spring.listener";

    /** What came back through {@code JmsTemplate.receiveAndConvert}, and what the listener heard, in order. */
    public record Received(String byTemplate, List<String> byListener) {
    }

    /** The Spring configuration; the {@link RamjetConnectionFactory} bean is registered by whoever starts the context. */
    @Configuration
    public static class JmsConfig {

        @Bean
        public CachingConnectionFactory cachingConnectionFactory(RamjetConnectionFactory ramjet) {
            return new CachingConnectionFactory(ramjet);
        }

        @Bean
        public JmsTemplate jmsTemplate(CachingConnectionFactory connectionFactory) {
            JmsTemplate template = new JmsTemplate(connectionFactory);
            template.setReceiveTimeout(5_000);
            return template;
        }

        @Bean
        public Inbox inbox() {
            return new Inbox();
        }

        @Bean
        public DefaultMessageListenerContainer listenerContainer(RamjetConnectionFactory ramjet, Inbox inbox) {
            DefaultMessageListenerContainer container = new DefaultMessageListenerContainer();
            container.setConnectionFactory(ramjet);
            container.setDestinationName(LISTENER_QUEUE);
            container.setReceiveTimeout(500);
            container.setMessageListener((MessageListener) message -> {
                try {
                    inbox.texts.add(message.getBody(String.class));
                } catch (JMSException e) {
                    LOG.error("listener could not read {}", message, e);
                }
            });
            return container;
        }
    }

    /** Where the listener puts the texts it receives. */
    public static final class Inbox {
        private final BlockingQueue<String> texts = new LinkedBlockingQueue<>();

        /** Takes {@code count} texts, waiting at most {@code seconds} for each. */
        public List<String> take(int count, long seconds) throws InterruptedException {
            List<String> taken = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String text = texts.poll(seconds, TimeUnit.SECONDS);
                if (text == null) {
                    break;
                }
                taken.add(text);
            }
            return taken;
        }
    }

    private SpringJmsTemplate() {
    }

    public static void main(String[] args) throws InterruptedException {
        String url = args.length > 0 ? args[0] : DEFAULT_URL;
        Received received = run(url, List.of("first", "second", "third"));
        System.out.println("JmsTemplate received: " + received.byTemplate());
        System.out.println("listener container received: " + received.byListener());
    }

    /**
     * Starts the Spring context, round-trips one message through the template, sends
     * {@code toListener} for the listener container and waits for them, then closes the context.
     */
    public static Received run(String url, List<String> toListener) throws InterruptedException {
        try (AnnotationConfigApplicationContext spring = new AnnotationConfigApplicationContext()) {
            spring.registerBean(RamjetConnectionFactory.class, () -> new RamjetConnectionFactory(url));
            spring.register(JmsConfig.class);
            spring.refresh();

            JmsTemplate template = spring.getBean(JmsTemplate.class);
            template.convertAndSend(TEMPLATE_QUEUE, "hello from JmsTemplate");
            String byTemplate = (String) template.receiveAndConvert(TEMPLATE_QUEUE);
            LOG.info("JmsTemplate round trip on {}: '{}'", TEMPLATE_QUEUE, byTemplate);

            for (String text : toListener) {
                template.send(LISTENER_QUEUE, session -> session.createTextMessage(text));
            }
            List<String> byListener = spring.getBean(Inbox.class).take(toListener.size(), 5);
            LOG.info("listener container on {} received {}", LISTENER_QUEUE, byListener);
            return new Received(byTemplate, byListener);
        }
    }
}
