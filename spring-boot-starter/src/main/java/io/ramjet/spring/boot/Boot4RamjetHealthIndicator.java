package io.ramjet.spring.boot;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/** Boot 4's Actuator type (spring-boot-health) for {@link RamjetHealthCheck}. */
class Boot4RamjetHealthIndicator extends AbstractHealthIndicator {

    private final RamjetHealthCheck check;

    Boot4RamjetHealthIndicator(RamjetHealthCheck check) {
        super("Ramjet health check failed");
        this.check = check;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        builder.up().withDetail("provider", "Ramjet " + check.check());
    }
}
