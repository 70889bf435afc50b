package io.ramjet.tck;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Counts results per provider and prints "Ramjet: N passed, N failed" and the same for Artemis
 * when the run ends, so the two providers' results sit side by side.
 */
public final class TckSummary implements TestWatcher {

    private static final Map<String, AtomicIntegerArray> COUNTS = new TreeMap<>();

    @Override
    public void testSuccessful(ExtensionContext context) {
        count(context, 0);
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        count(context, 1);
    }

    @Override
    public void testAborted(ExtensionContext context, Throwable cause) {
        count(context, 2);
    }

    private static void count(ExtensionContext context, int slot) {
        String provider = context.getDisplayName().startsWith("[") ? context.getDisplayName().substring(1).split("]")[0] : "?";
        synchronized (COUNTS) {
            COUNTS.computeIfAbsent(provider, k -> new AtomicIntegerArray(3)).incrementAndGet(slot);
        }
    }

    static void print() {
        synchronized (COUNTS) {
            StringBuilder out = new StringBuilder("\n== conformance summary ==\n");
            COUNTS.forEach((provider, c) -> out.append(provider).append(": ").append(c.get(0)).append(" passed, ")
                    .append(c.get(1)).append(" failed, ").append(c.get(2)).append(" aborted\n"));
            System.err.print(out);
            try {
                java.nio.file.Files.writeString(java.nio.file.Path.of("target", "tck-summary.txt"), out.toString());
            } catch (java.io.IOException e) {
                System.err.println("cannot write target/tck-summary.txt: " + e);
            }
        }
    }

}
