package io.ramjet.spring.boot;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.connection.UserCredentialsConnectionFactoryAdapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The beans the starter makes from {@code spring.ramjet.*}, on Boot 3's Actuator (Boot 4's is hidden). */
class RamjetAutoConfigurationTest {

    /** Nothing listens on port 1 of the loopback address. */
    private static final String NOBODY = "ramjet://127.0.0.1:1?requestTimeout=500";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RamjetAutoConfiguration.class))
            .withClassLoader(new FilteredClassLoader("org.springframework.boot.health."));

    @Test
    void withoutAUrlAnEmbeddedBrokerStartsAndTheCachingFactoryPointsAtIt() {
        runner.run(context -> {
            EmbeddedBroker broker = context.getBean(EmbeddedBroker.class);
            CachingConnectionFactory caching = context.getBean(CachingConnectionFactory.class);
            RamjetConnectionFactory ramjet = assertInstanceOf(RamjetConnectionFactory.class, caching.getTargetConnectionFactory());
            assertEquals("ramjet://" + broker.nameServerAddress(), ramjet.getUrl());
        });
    }

    @Test
    void aUrlTurnsTheEmbeddedBrokerOff() {
        runner.withPropertyValues("spring.ramjet.url=" + NOBODY).run(context -> {
            assertFalse(context.containsBean("ramjetEmbeddedBroker"));
            assertEquals(NOBODY, ramjet(context.getBean(CachingConnectionFactory.class)).getUrl());
        });
    }

    @Test
    void withTheEmbeddedBrokerDisabledAndNoUrlTheDefaultAddressIsUsed() {
        runner.withPropertyValues("spring.ramjet.embedded.enabled=false").run(context -> {
            assertFalse(context.containsBean("ramjetEmbeddedBroker"));
            assertEquals(RamjetConnectionFactoryConfiguration.DEFAULT_URL,
                    ramjet(context.getBean(CachingConnectionFactory.class)).getUrl());
        });
    }

    @Test
    void cacheSettingsGoOnTheCachingFactory() {
        runner.withPropertyValues("spring.ramjet.cache.session-cache-size=5", "spring.ramjet.cache.producers=false",
                "spring.ramjet.cache.consumers=true").run(context -> {
            CachingConnectionFactory caching = context.getBean(CachingConnectionFactory.class);
            assertEquals(5, caching.getSessionCacheSize());
            assertFalse(caching.isCacheProducers());
            assertTrue(caching.isCacheConsumers());
        });
    }

    @Test
    void theClientIdIsTheSharedConnectionsAndHealthChecksStillConnect() {
        runner.withPropertyValues("spring.ramjet.client-id=orders").run(context -> {
            try (Connection connection = context.getBean(ConnectionFactory.class).createConnection()) {
                assertEquals("orders", connection.getClientID());
                assertEquals(Status.UP, context.getBean("ramjetHealthIndicator", HealthIndicator.class).health().getStatus());
            }
        });
    }

    @Test
    void aUserWrapsTheRamjetFactoryInItsCredentials() {
        runner.withPropertyValues("spring.ramjet.user=alice", "spring.ramjet.password=wonderland").run(context ->
                assertInstanceOf(UserCredentialsConnectionFactoryAdapter.class,
                        context.getBean(CachingConnectionFactory.class).getTargetConnectionFactory()));
    }

    @Test
    void withoutTheCacheTheBeanIsTheRamjetFactoryWithTheClientId() {
        runner.withPropertyValues("spring.ramjet.cache.enabled=false", "spring.ramjet.client-id=orders").run(context -> {
            RamjetConnectionFactory ramjet = assertInstanceOf(RamjetConnectionFactory.class, context.getBean(ConnectionFactory.class));
            assertEquals("orders", ramjet.getClientId());
        });
    }

    @Test
    void anApplicationsOwnConnectionFactoryWins() {
        RamjetConnectionFactory own = new RamjetConnectionFactory(NOBODY);
        runner.withBean(ConnectionFactory.class, () -> own).run(context -> {
            assertSame(own, context.getBean(ConnectionFactory.class));
            assertFalse(context.containsBean("ramjetEmbeddedBroker"));
        });
    }

    @Test
    void healthIsDownWhenNoBrokerAnswers() {
        runner.withPropertyValues("spring.ramjet.url=" + NOBODY).run(context ->
                assertEquals(Status.DOWN, context.getBean("ramjetHealthIndicator", HealthIndicator.class).health().getStatus()));
    }

    @Test
    void theHealthIndicatorCanBeTurnedOff() {
        runner.withPropertyValues("management.health.ramjet.enabled=false").run(context ->
                assertFalse(context.containsBean("ramjetHealthIndicator")));
    }

    private static RamjetConnectionFactory ramjet(CachingConnectionFactory caching) {
        return assertInstanceOf(RamjetConnectionFactory.class, caching.getTargetConnectionFactory());
    }
}
