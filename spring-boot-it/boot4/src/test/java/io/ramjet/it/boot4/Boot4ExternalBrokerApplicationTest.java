package io.ramjet.it.boot4;

import io.ramjet.it.ExternalBrokerApplicationContract;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.ApplicationContext;

class Boot4ExternalBrokerApplicationTest extends ExternalBrokerApplicationContract {

    @Override
    protected String ramjetHealth(ApplicationContext context) {
        return context.getBean("ramjetHealthIndicator", HealthIndicator.class).health().getStatus().getCode();
    }
}
