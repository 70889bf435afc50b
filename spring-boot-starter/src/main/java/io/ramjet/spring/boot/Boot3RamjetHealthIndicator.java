package io.ramjet.spring.boot;

import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/** Boot 3's Actuator type for {@link RamjetHealthCheck}. */
class Boot3RamjetHealthIndicator extends AbstractHealthIndicator {

    private final RamjetHealthCheck check;

    Boot3RamjetHealthIndicator(RamjetHealthCheck check) {
        super("Ramjet health check failed");
        this.check = check;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        builder.up().withDetail("provider", "Ramjet " + check.check());
    }
}
