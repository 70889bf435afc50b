package io.ramjet.spring.boot;

import jakarta.jms.ConnectionFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The {@code ramjet} health indicator, in the flavour of the Actuator present (Boot 3 or Boot 4 packages). */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "management.health.ramjet", name = "enabled", matchIfMissing = true)
class RamjetHealthConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.health.AbstractHealthIndicator")
    static class Boot3 {

        @Bean
        Boot3RamjetHealthIndicator ramjetHealthIndicator(ConnectionFactory jmsConnectionFactory) {
            return new Boot3RamjetHealthIndicator(new RamjetHealthCheck(jmsConnectionFactory));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.AbstractHealthIndicator")
    static class Boot4 {

        @Bean
        Boot4RamjetHealthIndicator ramjetHealthIndicator(ConnectionFactory jmsConnectionFactory) {
            return new Boot4RamjetHealthIndicator(new RamjetHealthCheck(jmsConnectionFactory));
        }
    }
}
