package io.ramjet.bench.peer;

import java.io.IOException;
import java.util.List;

/**
 * A peer made of several JVMs sharing one temporary data directory (a replicated group, several
 * broker groups): its name, its processes, and how they stop (every process, then the directory).
 */
abstract class ProcessGroupPeer implements Peer {

    private final String name;
    private final TemporaryDirectory data;
    private final List<PeerProcess> processes;

    ProcessGroupPeer(String name, TemporaryDirectory data, List<PeerProcess> processes) {
        this.name = name;
        this.data = data;
        this.processes = processes;
    }

    /** Stops every process, then removes the data directory, even when a stop fails. */
    static void stop(List<PeerProcess> processes, TemporaryDirectory data) throws IOException {
        try {
            for (PeerProcess p : processes) {
                p.close();
            }
        } finally {
            data.close();
        }
    }

    TemporaryDirectory data() {
        return data;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public List<PeerProcess> processes() {
        return processes;
    }

    @Override
    public List<Long> pids() {
        return processes.stream().map(PeerProcess::pid).toList();
    }

    @Override
    public boolean isAlive() {
        return processes.stream().allMatch(PeerProcess::isAlive);
    }

    @Override
    public void close() throws IOException {
        stop(processes, data);
    }

    @Override
    public String toString() {
        return name + " " + processes;
    }
}
