package io.ramjet.spring.boot;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.ConnectionFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Import;
import org.springframework.jms.connection.CachingConnectionFactory;

/**
 * Ramjet as the application's JMS provider, unless it defines its own {@link ConnectionFactory}.
 * Runs before Boot's JMS auto-configuration (in {@code spring-boot-autoconfigure} on Boot 3, in
 * {@code spring-boot-jms} on Boot 4), which then adds {@code JmsTemplate}, {@code @EnableJms} and
 * the listener container factory on top of this connection factory, with Boot's
 * {@code spring.jms.*} settings.
 */
@AutoConfiguration(beforeName = {
        "org.springframework.boot.autoconfigure.jms.JmsAutoConfiguration",
        "org.springframework.boot.jms.autoconfigure.JmsAutoConfiguration"})
@ConditionalOnClass({ConnectionFactory.class, CachingConnectionFactory.class, RamjetConnectionFactory.class})
@ConditionalOnMissingBean(ConnectionFactory.class)
@EnableConfigurationProperties(RamjetProperties.class)
@Import({RamjetEmbeddedBrokerConfiguration.class, RamjetConnectionFactoryConfiguration.class, RamjetHealthConfiguration.class})
public class RamjetAutoConfiguration {
}
