package io.ramjet.it.boot3;

import io.ramjet.it.ExternalBrokerApplicationContract;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.context.ApplicationContext;

class Boot3ExternalBrokerApplicationTest extends ExternalBrokerApplicationContract {

    @Override
    protected String ramjetHealth(ApplicationContext context) {
        return context.getBean("ramjetHealthIndicator", HealthIndicator.class).health().getStatus().getCode();
    }
}
