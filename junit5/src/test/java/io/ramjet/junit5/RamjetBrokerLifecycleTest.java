package io.ramjet.junit5;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Runs small test classes through the JUnit engine and checks when their broker started and
 * stopped. (Surefire does not run the nested classes on their own: it skips inner classes.)
 */
class RamjetBrokerLifecycleTest {

    /** What each test of the classes below saw: its broker's URL and data directory. */
    record Seen(String url, Path dataDir) {
    }

    static final List<Seen> SEEN = new CopyOnWriteArrayList<>();

    @BeforeEach
    void forget() {
        SEEN.clear();
    }

    @Test
    void aStaticFieldGivesTheTestsOfAClassOneBrokerThatIsGoneAfterTheClass() {
        run(PerClass.class, 2);

        assertEquals(2, SEEN.size());
        assertEquals(SEEN.get(0).url(), SEEN.get(1).url());
        assertFalse(Files.exists(SEEN.get(0).dataDir()), "data directory removed after the class");
    }

    @Test
    void anInstanceFieldGivesEachTestItsOwnBrokerThatIsGoneAfterTheTest() {
        run(PerTest.class, 2);

        assertEquals(2, SEEN.size());
        assertNotEquals(SEEN.get(0).url(), SEEN.get(1).url());
        assertNotEquals(SEEN.get(0).dataDir(), SEEN.get(1).dataDir());
        assertFalse(Files.exists(SEEN.get(0).dataDir()));
        assertFalse(Files.exists(SEEN.get(1).dataDir()));
    }

    @Test
    void nestedClassesShareTheBrokerOfTheirEnclosingClass() {
        run(WithNested.class, 2);

        assertEquals(2, SEEN.size());
        assertEquals(SEEN.get(0).url(), SEEN.get(1).url());
        assertFalse(Files.exists(SEEN.get(0).dataDir()));
    }

    @Test
    void aBrokerThatIsNotRunningSaysHowToRegisterIt() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> RamjetBroker.create().url());

        assertTrue(e.getMessage().contains("@RegisterExtension"), e.getMessage());
    }

    private static void run(Class<?> testClass, int tests) {
        EngineTestKit.engine("junit-jupiter").selectors(selectClass(testClass)).execute()
                .testEvents().assertStatistics(s -> s.started(tests).succeeded(tests));
    }

    static class PerClass {
        @RegisterExtension
        static RamjetBroker broker = RamjetBroker.create();

        @Test
        void first() {
            sendAndRecord(broker);
        }

        @Test
        void second() {
            sendAndRecord(broker);
        }
    }

    /** Each test sends to the same queue and, on its own broker, finds only its message. */
    static class PerTest {
        @RegisterExtension
        RamjetBroker broker = RamjetBroker.create();

        @Test
        void first() {
            assertEquals(1, sendAndRecord(broker));
        }

        @Test
        void second() {
            assertEquals(1, sendAndRecord(broker));
        }
    }

    static class WithNested {
        @RegisterExtension
        static RamjetBroker broker = RamjetBroker.create();

        @Test
        void outer() {
            sendAndRecord(broker);
        }

        @Nested
        class Inner {
            @Test
            void inner() {
                sendAndRecord(broker);
            }
        }
    }

    /** Sends one message and returns how many the queue holds then. */
    private static int sendAndRecord(RamjetBroker broker) {
        SEEN.add(new Seen(broker.url(), broker.dataDir()));
        broker.send("lifecycle", "hello");
        return broker.messageCount("lifecycle");
    }
}
