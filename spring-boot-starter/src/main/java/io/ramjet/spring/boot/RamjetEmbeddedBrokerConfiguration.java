package io.ramjet.spring.boot;

import io.ramjet.server.embedded.EmbeddedBroker;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/** Starts a broker in this JVM on ephemeral ports of 127.0.0.1 and points the connection factory at it; stopped with the context. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "io.ramjet.server.embedded.EmbeddedBroker")
@Conditional(EmbeddedBrokerCondition.class)
class RamjetEmbeddedBrokerConfiguration {

    @Bean(destroyMethod = "close")
    EmbeddedBroker ramjetEmbeddedBroker(RamjetProperties properties) {
        RamjetProperties.Embedded embedded = properties.getEmbedded();
        return embedded.getDataDir() == null ? EmbeddedBroker.start() : EmbeddedBroker.start(embedded.getDataDir());
    }

    @Bean
    RamjetBrokerUrl ramjetEmbeddedBrokerUrl(EmbeddedBroker broker) {
        return new RamjetBrokerUrl("ramjet://" + broker.nameServerAddress());
    }
}
