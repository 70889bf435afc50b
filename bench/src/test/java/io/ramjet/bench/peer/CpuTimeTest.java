package io.ramjet.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CpuTimeTest {

    @Test
    void utimePlusStimeCountedFromTheLastParenthesis() {
        // a command name with a space and a parenthesis of its own; utime 250, stime 50 ticks
        String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 30 0 123 0 0";
        assertEquals(3_000_000_000L, CpuTime.parse(stat));
    }

    @Test
    void aBusyProcessHasCpuTimeThatGrows() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Linux only");
        long pid = ProcessHandle.current().pid();
        long before = CpuTime.ofProcess(pid);
        // spin until this thread alone has used 300 ms of CPU, however busy the machine is
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long spin = threads.getCurrentThreadCpuTime() + 300_000_000L;
        long x = 0;
        while (threads.getCurrentThreadCpuTime() < spin) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        long after = CpuTime.ofProcess(pid);
        // at least the 300 ms less a clock tick (10 ms) at either end
        assertTrue(before >= 0 && after - before >= 280_000_000L, before + " -> " + after + " (" + x + ")");
    }

    @Test
    void aProcessThatIsNotThereHasNone() {
        assertEquals(-1, CpuTime.ofProcess(Long.MAX_VALUE));
    }
}
