package io.ramjet.provider.selector;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** The common paths (comparison, IN, LIKE, IS NULL, AND/OR/NOT) allocate nothing per message. */
class AllocationTest {

    @Test
    void evaluatingWithoutArithmeticAllocatesNothing() throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Selector s = Selector.parse("color = 'red' AND n >= 3 AND d < 9.5 AND kind IN ('a', 'b') AND name LIKE 'ab%'"
                + " AND missing IS NULL AND NOT (flag = FALSE) OR JMSPriority = 4");
        MapSource m = new MapSource("color", "red", "n", 5, "d", 2.5d, "kind", "b", "name", "abc", "flag", true);
        boolean all = true;
        for (int i = 0; i < 20_000; i++) {
            all &= s.matches(m);
        }
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < 100_000; i++) {
            all &= s.matches(m);
        }
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        assertTrue(all);
        assertTrue(allocated < 10_000, "allocated " + allocated + " bytes for 100000 evaluations");
    }
}
