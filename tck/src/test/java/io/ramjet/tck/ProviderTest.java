package io.ramjet.tck;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/** A conformance test run once per provider, with the {@link Jms} fixture of that provider injected. */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@TestTemplate
@ExtendWith({EachProvider.class, TckSummary.class, KnownGaps.class})
public @interface ProviderTest {
}
