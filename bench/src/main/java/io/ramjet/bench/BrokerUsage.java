package io.ramjet.bench;

import io.ramjet.bench.peer.CpuTime;
import io.ramjet.bench.peer.Peer;
import io.ramjet.bench.peer.PeerProcess;
import io.ramjet.bench.result.Cell;
import io.ramjet.bench.result.Results;
import io.ramjet.bench.result.Row;
import io.ramjet.bench.result.Rows;
import java.io.IOException;

/**
 * What a peer's brokers spent on one phase of a workload: the CPU time of all its broker JVMs
 * (user and system, from {@code /proc/<pid>/stat}) between {@link #start} and {@link #stop}, and
 * the most heap they held at once meanwhile (each JVM's peak since the start, summed; each JVM
 * resets its peaks when asked, so a phase sees only its own).
 */
final class BrokerUsage {

    private static final double MIB = 1 << 20;

    private final Peer peer;
    private final long cpuBefore;

    private BrokerUsage(Peer peer, long cpuBefore) {
        this.peer = peer;
        this.cpuBefore = cpuBefore;
    }

    /** Reads the brokers' CPU time and resets their heap peaks: the start of a phase. */
    static BrokerUsage start(Peer peer) throws IOException {
        for (PeerProcess p : peer.processes()) {
            p.peakHeapBytes();
        }
        return new BrokerUsage(peer, cpu(peer));
    }

    /**
     * The end of the phase: puts the brokers' CPU milliseconds per 1,000 of {@code messages} on
     * {@code row}'s CPU row and their peak heap in MiB on its heap row ({@link Rows#cpu},
     * {@link Rows#peakHeap}); a figure /proc or the broker cannot give is left out.
     */
    void stop(Row row, long messages, Results results) throws IOException {
        long cpuAfter = cpu(peer);
        if (cpuBefore >= 0 && cpuAfter >= 0 && messages > 0) {
            results.put(Rows.cpu(row), peer.name(), Cell.of((cpuAfter - cpuBefore) / 1e6 / (messages / 1_000.0)));
        } else {
            results.put(Rows.cpu(row), peer.name(), Cell.notApplicable("no CPU time in /proc"));
        }
        results.put(Rows.peakHeap(row), peer.name(), peakHeap());
    }

    /** The most heap, in MiB, the brokers held at once since {@link #start}; n/a when a broker cannot tell. */
    Cell peakHeap() throws IOException {
        long peak = 0;
        for (PeerProcess p : peer.processes()) {
            long bytes = p.peakHeapBytes();
            if (bytes < 0) {
                return Cell.notApplicable(p.name() + " did not tell its heap");
            }
            peak += bytes;
        }
        return peer.processes().isEmpty() ? Cell.notApplicable("no broker JVM") : Cell.of(peak / MIB);
    }

    /** The CPU time of every JVM of the peer, in ns; -1 if one cannot be read. */
    private static long cpu(Peer peer) {
        long sum = 0;
        for (long pid : peer.pids()) {
            long t = CpuTime.ofProcess(pid);
            if (t < 0) {
                return -1;
            }
            sum += t;
        }
        return sum;
    }
}
