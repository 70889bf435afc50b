package io.ramjet.samples;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.embedded.EmbeddedCluster;
import jakarta.jms.JMSException;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.springframework.jms.JmsException;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.jms.listener.DefaultMessageListenerContainer;

/**
 * A Spring application over Ramjet survives a broker restart: a {@link CachingConnectionFactory}
 * (which closes its shared connection from the connection's exception listener) and a
 * {@link DefaultMessageListenerContainer} on it, against an in-JVM broker that is stopped and
 * started again on its data and port. The container must resume consuming, and nothing the
 * template sent may be lost. (Before the exception listener had a thread of its own, the factory's
 * close ran on the client's I/O thread and never returned: the application hung for good.)
 */
class SpringBrokerRestartTest {

    private static final String QUEUE = "samples.spring.restart";
    private static final int BATCH = 20;
    private static final Duration OUTAGE = Duration.ofSeconds(3);

    private EmbeddedCluster cluster;
    private CachingConnectionFactory connectionFactory;
    private DefaultMessageListenerContainer container;
    private final Set<String> received = new ConcurrentSkipListSet<>();

    @BeforeEach
    void startBroker() {
        cluster = EmbeddedCluster.start(1);
        connectionFactory = new CachingConnectionFactory(
                new RamjetConnectionFactory("ramjet://" + cluster.nameServerAddress()));
    }

    /** The container, on the caching factory or (as in {@link SpringJmsTemplate}) on Ramjet's own. */
    private void startContainer(boolean onCachingFactory) {
        container = new DefaultMessageListenerContainer();
        container.setConnectionFactory(onCachingFactory ? connectionFactory
                : new RamjetConnectionFactory("ramjet://" + cluster.nameServerAddress()));
        container.setDestinationName(QUEUE);
        container.setReceiveTimeout(500);
        container.setRecoveryInterval(500);
        container.setMessageListener((MessageListener) message -> {
            try {
                received.add(((TextMessage) message).getText());
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });
        container.afterPropertiesSet();
        container.start();
    }

    @AfterEach
    void stop() {
        if (container != null) {
            container.shutdown();
        }
        if (connectionFactory != null) {
            connectionFactory.destroy();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest(name = "container on the caching factory: {0}")
    @ValueSource(booleans = {true, false})
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void theListenerContainerResumesConsumingAfterABrokerRestart(boolean onCachingFactory) throws Exception {
        startContainer(onCachingFactory);
        JmsTemplate template = new JmsTemplate(connectionFactory);
        List<String> before = texts("before");
        sendAll(template, before);
        awaitReceived(before, 10);

        String address = cluster.broker(0).address();
        int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
        cluster.stopBroker(0);
        // the outage itself, a length of the scenario rather than a condition: the container's
        // receives and the factory's exception listener meet the stopped broker for a while
        Thread.sleep(OUTAGE.toMillis());
        long restart = System.nanoTime();
        cluster.restartBroker(0, port);

        List<String> after = texts("after");
        sendAll(template, after);
        awaitReceived(after, 30);
        System.out.printf("spring restart (container on the caching factory: %s): %d sent before, %d after; "
                + "all %d received %d ms after the restart%n", onCachingFactory, before.size(), after.size(), received.size(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restart));
        assertEquals(new TreeSet<>(concat(before, after)), new TreeSet<>(received));
        assertTrue(container.isRunning());
    }

    private static List<String> texts(String prefix) {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < BATCH; i++) {
            texts.add(prefix + "-" + i);
        }
        return texts;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Sends each text in order, retrying a send that fails while the broker comes back (at most 30 s in all). */
    private static void sendAll(JmsTemplate template, List<String> texts) {
        AtomicInteger sent = new AtomicInteger();
        await("every text sent").atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(200)).until(() -> {
                    while (sent.get() < texts.size()) {
                        String text = texts.get(sent.get());
                        try {
                            template.send(QUEUE, session -> session.createTextMessage(text));
                        } catch (JmsException e) {
                            return false;
                        }
                        sent.incrementAndGet();
                    }
                    return true;
                });
    }

    private void awaitReceived(List<String> texts, long seconds) {
        await().atMost(Duration.ofSeconds(seconds)).pollInterval(Duration.ofMillis(50)).untilAsserted(() ->
                assertEquals(List.of(), texts.stream().filter(t -> !received.contains(t)).toList(),
                        "not received within " + seconds + " s"));
    }
}
