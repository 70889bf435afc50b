package io.ramjet.bench;

import io.ramjet.bench.peer.Peer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * While one peer works, the others wait at the lowest CPU and I/O priority: every thread of their
 * JVMs at nice 19 and in the idle I/O class ({@code ionice -c 3}: a disk request of theirs is
 * served only when the disk has nothing else to do), the working peer's at nice 0 and in the
 * best-effort class at its default level 4. (The I/O classes act where the disk's scheduler
 * honours them, BFQ; mq-deadline and none ignore them: the results record the disks' schedulers.) An idle peer still runs its own background threads (RocketMQ's
 * idle brokers poll every millisecond, a noticeable share of a core each), and on two cores that time and those wake-ups landed in whichever peer was working.
 *
 * <p>Linux only ({@code /proc/<pid>/task}, {@code renice}); giving a thread back its priority
 * needs root (or CAP_SYS_NICE). Where that fails, every peer is left at nice 19 from then on, so
 * they stay on an equal footing, and a warning says so.
 */
final class IdlePeers {

    private static final Logger LOG = LoggerFactory.getLogger(IdlePeers.class);
    static final int IDLE = 19;
    private static final int WORKING = 0;

    private final List<Peer> peers;
    private boolean unavailable;
    private boolean ioUnavailable;

    IdlePeers(List<Peer> peers) {
        this.peers = peers;
    }

    /** Every other peer's threads to the idle I/O class, {@code working}'s to best-effort; once a failure, never again. */
    private void io(Peer working) {
        if (ioUnavailable) {
            return;
        }
        for (Peer peer : peers) {
            List<String> command = new ArrayList<>(peer == working ? List.of("ionice", "-c", "2", "-n", "4", "-p")
                    : List.of("ionice", "-c", "3", "-p"));
            if (!run(command, peer)) {
                ioUnavailable = true;
                LOG.warn("could not set {}'s I/O priority (ionice): idle peers' disk work competes with the working "
                        + "peer's from now on", peer.name());
                return;
            }
        }
    }

    /** Gives {@code working} the normal priorities and every other peer the lowest. */
    void working(Peer working) {
        io(working);
        if (unavailable) {
            return;
        }
        for (Peer peer : peers) {
            if (peer != working && !nice(peer, IDLE)) {
                giveUp("could not lower " + peer.name() + "'s priority");
                return;
            }
        }
        if (!nice(working, WORKING)) {
            giveUp("could not give " + working.name() + " its priority back (root or CAP_SYS_NICE needed)");
        }
    }

    private void giveUp(String why) {
        unavailable = true;
        for (Peer peer : peers) {
            nice(peer, IDLE);
        }
        LOG.warn("{}: every peer runs at nice {} from now on, and idle peers' background work lands in the "
                + "working peer's rounds", why, IDLE);
    }

    private static boolean nice(Peer peer, int value) {
        return run(new ArrayList<>(List.of("renice", "-n", Integer.toString(value), "-p")), peer);
    }

    /** Runs {@code command} with the ids of every thread of the peer's JVMs appended; true if it succeeded. */
    private static boolean run(List<String> command, Peer peer) {
        int options = command.size();
        for (long pid : peer.pids()) {
            command.addAll(threads(pid));
        }
        if (command.size() == options) {
            return false;
        }
        try {
            Process renice = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return renice.waitFor(10, TimeUnit.SECONDS) && renice.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The thread ids of process {@code pid}; none where /proc is not there. */
    private static List<String> threads(long pid) {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return tasks.map(task -> task.getFileName().toString()).toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
