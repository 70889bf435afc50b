package io.ramjet.bench.peer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time a process has used, from {@code /proc/<pid>/stat}: its {@code utime} and
 * {@code stime} (fields 14 and 15), in clock ticks, which Linux counts at 100 per second for
 * user space whatever the kernel's own tick.
 */
public final class CpuTime {

    /** USER_HZ: the clock ticks per second /proc counts in. */
    static final long TICKS_PER_SECOND = 100;

    private CpuTime() {
    }

    /** The user and system CPU time of process {@code pid} in nanoseconds; -1 where /proc cannot say. */
    public static long ofProcess(long pid) {
        try {
            return parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * utime + stime of one {@code /proc/<pid>/stat} line in nanoseconds. The command name (field
     * 2) is in parentheses and may hold spaces and parentheses, so fields are counted from the
     * last closing one.
     */
    static long parse(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // fields[0] is field 3 (state): utime is field 14, stime field 15
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        return ticks * (1_000_000_000L / TICKS_PER_SECOND);
    }
}
