package io.ramjet.tck;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;

/** Runs a {@link ProviderTest} once per provider, naming each run "[Provider]". */
final class EachProvider implements TestTemplateInvocationContextProvider {

    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
        return true;
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        return Providers.started(context).stream().map(EachProvider::invocation);
    }

    private static TestTemplateInvocationContext invocation(ProviderUnderTest provider) {
        return new TestTemplateInvocationContext() {
            @Override
            public String getDisplayName(int index) {
                return "[" + provider.name() + "]";
            }

            @Override
            public List<Extension> getAdditionalExtensions() {
                return List.of(new JmsResolver(provider));
            }
        };
    }

    private static final class JmsResolver implements ParameterResolver, org.junit.jupiter.api.extension.AfterEachCallback {
        private final ProviderUnderTest provider;
        private Jms jms;

        JmsResolver(ProviderUnderTest provider) {
            this.provider = provider;
        }

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == Jms.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            jms = new Jms(provider, context.getRequiredTestMethod().getName());
            return jms;
        }

        @Override
        public void afterEach(ExtensionContext context) {
            if (jms != null) {
                jms.close();
            }
        }
    }
}
