package io.ramjet.spring.boot;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.ConnectionFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.connection.UserCredentialsConnectionFactoryAdapter;

/**
 * The application's one {@link ConnectionFactory}: a {@link CachingConnectionFactory} sharing one
 * connection (so a {@code JmsTemplate} send does not open a connection each time) around a
 * {@link RamjetConnectionFactory}. The client id goes on the shared connection, not on the
 * underlying factory, so that other connections from it (the health check's) do not clash with it.
 */
@Configuration(proxyBeanMethods = false)
class RamjetConnectionFactoryConfiguration {

    static final String DEFAULT_URL = "ramjet://127.0.0.1:9876";

    @Bean(name = "jmsConnectionFactory")
    ConnectionFactory jmsConnectionFactory(RamjetProperties properties, ObjectProvider<RamjetBrokerUrl> brokerUrl) {
        RamjetBrokerUrl decided = brokerUrl.getIfAvailable();
        String url = decided != null ? decided.value() : properties.getUrl() != null ? properties.getUrl() : DEFAULT_URL;
        RamjetConnectionFactory ramjet = new RamjetConnectionFactory(url);
        ConnectionFactory target = properties.getUser() == null ? ramjet : withCredentials(ramjet, properties);
        RamjetProperties.Cache cache = properties.getCache();
        if (!cache.isEnabled()) {
            if (properties.getClientId() != null) {
                ramjet.setClientId(properties.getClientId());
            }
            return target;
        }
        CachingConnectionFactory caching = new CachingConnectionFactory(target);
        caching.setClientId(properties.getClientId());
        caching.setSessionCacheSize(cache.getSessionCacheSize());
        caching.setCacheProducers(cache.isProducers());
        caching.setCacheConsumers(cache.isConsumers());
        return caching;
    }

    private static ConnectionFactory withCredentials(ConnectionFactory target, RamjetProperties properties) {
        UserCredentialsConnectionFactoryAdapter adapter = new UserCredentialsConnectionFactoryAdapter();
        adapter.setTargetConnectionFactory(target);
        adapter.setUsername(properties.getUser());
        adapter.setPassword(properties.getPassword());
        return adapter;
    }
}
