package io.ramjet.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ramjet.bench.peer.Peer;
import io.ramjet.bench.workload.Workloads;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The working peer's threads run at nice 0 in the best-effort I/O class, every other peer's at
 * nice 19 in the idle I/O class (child processes stand in for peers).
 */
class IdlePeersTest {

    private Process first;
    private Process second;

    @BeforeEach
    void start() throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
        first = new ProcessBuilder("sleep", "60").start();
        second = new ProcessBuilder("sleep", "60").start();
    }

    @AfterEach
    void stop() {
        if (first != null) {
            first.destroyForcibly();
            second.destroyForcibly();
        }
    }

    @Test
    void theWorkingPeerRunsAtNormalPriorityAndTheOthersAtTheLowest() throws IOException {
        Peer a = new ProcessPeer("a", first);
        Peer b = new ProcessPeer("b", second);
        IdlePeers idle = new IdlePeers(List.of(a, b));

        idle.working(a);
        assertEquals(0, nice(first));
        assertEquals(IdlePeers.IDLE, nice(second));
        assertTrue(ioClass(first).startsWith("best-effort: prio 4"), ioClass(first));
        assertEquals("idle", ioClass(second));

        idle.working(b);
        if (nice(second) == IdlePeers.IDLE) {
            // no right to raise a priority again (not root): every peer is left at the lowest
            assertEquals(IdlePeers.IDLE, nice(first));
            return;
        }
        assertEquals(0, nice(second));
        assertEquals(IdlePeers.IDLE, nice(first));
        assertTrue(ioClass(second).startsWith("best-effort: prio 4"), ioClass(second));
        assertEquals("idle", ioClass(first));
    }

    /** What {@code ionice -p} says of the process's I/O class. */
    private static String ioClass(Process p) throws IOException {
        Process ionice = new ProcessBuilder("ionice", "-p", Long.toString(p.pid())).redirectErrorStream(true).start();
        return new String(ionice.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    }

    /** Field 19 of /proc/<pid>/stat, after the command name (which may hold spaces) in parentheses. */
    private static int nice(Process p) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[16]);
    }

    /** A peer that is one child process and does nothing else. */
    private record ProcessPeer(String name, Process process) implements Peer {

        @Override
        public Workloads workloads(int producers, int consumers) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long liveHeapBytes() {
            return -1;
        }

        @Override
        public long diskBytes() {
            return -1;
        }

        @Override
        public long residentBytes() {
            return -1;
        }

        @Override
        public List<Long> pids() {
            return List.of(process.pid());
        }

        @Override
        public boolean isAlive() {
            return process.isAlive();
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }
}
