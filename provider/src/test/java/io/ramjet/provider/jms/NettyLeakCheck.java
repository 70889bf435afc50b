package io.ramjet.provider.jms;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.util.ResourceLeakDetector;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test class with Netty's leak detector at PARANOID (every buffer tracked) and fails the
 * class when it reports a leak of the broker or the client in its JVM; the level before is put
 * back after. Registered on a static field ({@code @RegisterExtension}), so it is in force before
 * the class's {@code @BeforeAll} starts a broker and checks after its {@code @AfterAll} stopped it.
 */
final class NettyLeakCheck implements BeforeAllCallback, AfterAllCallback {

    private final List<String> leaks = new CopyOnWriteArrayList<>();
    private ResourceLeakDetector.Level levelBefore;

    @Override
    public void beforeAll(ExtensionContext context) {
        levelBefore = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        ByteBufUtil.setLeakListener((type, records) -> leaks.add(type + ": " + records));
    }

    /**
     * Leaks are reported when a tracked buffer was collected unreleased and another one is then
     * tracked. A buffer dropped here on purpose, marked with a hint of its own (the detector
     * reports the same records only once per JVM), shows when the detector has seen what the
     * collections freed; any other report by then is a leak.
     */
    @Override
    public void afterAll(ExtensionContext context) {
        try {
            String mark = "dropped on purpose after " + context.getDisplayName() + " at " + System.nanoTime();
            ByteBufAllocator.DEFAULT.directBuffer(64).touch(mark);
            await("the detector reports the buffer dropped on purpose").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100)).until(() -> {
                        System.gc();
                        for (int i = 0; i < 100; i++) {
                            ByteBufAllocator.DEFAULT.directBuffer(64).release();
                        }
                        return leaks.stream().anyMatch(leak -> leak.contains(mark));
                    });
            assertEquals(List.of(), leaks.stream().filter(leak -> !leak.contains(mark)).toList(), "buffers leaked");
        } finally {
            ByteBufUtil.setLeakListener(null);
            ResourceLeakDetector.setLevel(levelBefore);
        }
    }
}
