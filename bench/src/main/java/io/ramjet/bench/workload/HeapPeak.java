package io.ramjet.bench.workload;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/** The heap peak of the JVM it runs in: what a client's or a broker's "peak heap" row reports. */
public final class HeapPeak {

    private HeapPeak() {
    }

    /** This JVM's heap pools' peaks since they were last reset, summed; then resets them. */
    public static long takeBytes() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
                peak += pool.getPeakUsage().getUsed();
                pool.resetPeakUsage();
            }
        }
        return peak;
    }
}
