package io.ramjet.spring.boot;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** {@code spring.ramjet.embedded.enabled} when set, otherwise "no {@code spring.ramjet.url} given" (as Boot does for Artemis). */
class EmbeddedBrokerCondition implements Condition {

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Environment environment = context.getEnvironment();
        String enabled = environment.getProperty("spring.ramjet.embedded.enabled");
        if (enabled != null) {
            return Boolean.parseBoolean(enabled.trim());
        }
        return !environment.containsProperty("spring.ramjet.url");
    }
}
