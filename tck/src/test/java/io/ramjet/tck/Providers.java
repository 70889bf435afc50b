package io.ramjet.tck;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The providers every conformance test runs against, each started once per test JVM on first
 * use and stopped when the JUnit run ends.
 */
public final class Providers {

    private static final Map<String, Supplier<ProviderUnderTest>> KNOWN = Map.of(
            "Artemis", ArtemisProvider::new, "Ramjet", RamjetProvider::new);

    /** Which providers run: both, unless {@code -Dtck.providers=Artemis} (or Ramjet) says otherwise. */
    private static final String DEFAULT = "Artemis,Ramjet";

    private Providers() {
    }

    /** Started providers; the root store closes them after the last test. */
    static synchronized List<ProviderUnderTest> started(ExtensionContext context) {
        ExtensionContext.Store store = context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL);
        @SuppressWarnings("unchecked")
        List<ProviderUnderTest> providers = store.getOrComputeIfAbsent(Providers.class, k -> new Running(startAll()), Running.class).providers;
        return providers;
    }

    private static List<ProviderUnderTest> startAll() {
        List<ProviderUnderTest> started = new ArrayList<>();
        for (String name : System.getProperty("tck.providers", DEFAULT).split(",")) {
            Supplier<ProviderUnderTest> s = KNOWN.get(name.trim());
            if (s == null) {
                throw new IllegalArgumentException("unknown provider '" + name + "'; known: " + KNOWN.keySet());
            }
            ProviderUnderTest p = s.get();
            try {
                p.start();
            } catch (Exception e) {
                throw new IllegalStateException("cannot start " + p.name(), e);
            }
            started.add(p);
        }
        return started;
    }

    private record Running(List<ProviderUnderTest> providers)
            implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        @Override
        public void close() throws Exception {
            for (ProviderUnderTest p : providers) {
                p.close();
            }
            TckSummary.print();
        }
    }
}
