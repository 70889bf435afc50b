package io.ramjet.tck;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Method;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;
import org.junit.jupiter.params.provider.ArgumentsSource;
import org.junit.jupiter.params.support.AnnotationConsumer;

/**
 * A table-driven conformance test: every row of the named static method ({@code List<?>} or
 * {@code Stream<?>}) runs once per provider, as {@code (Jms, row)}, and counts once per row.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "[{0}] {1}")
@ArgumentsSource(ProviderRows.Source.class)
@ExtendWith({TckSummary.class, KnownGaps.class})
public @interface ProviderRows {

    /** Name of a static no-argument method of the test class returning the rows. */
    String value();

    final class Source implements ArgumentsProvider, AnnotationConsumer<ProviderRows> {
        private String method;

        @Override
        public void accept(ProviderRows annotation) {
            method = annotation.value();
        }

        @Override
        public Stream<? extends Arguments> provideArguments(ExtensionContext context) throws Exception {
            Method m = context.getRequiredTestClass().getDeclaredMethod(method);
            m.setAccessible(true);
            Object rows = m.invoke(null);
            List<?> list = rows instanceof Stream<?> s ? s.toList() : (List<?>) rows;
            String test = context.getRequiredTestMethod().getName();
            return Providers.started(context).stream()
                    .flatMap(p -> list.stream().map(row -> Arguments.of(new Jms(p, test), row)));
        }
    }
}
