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
 * While one peer works, the others wait at the lowest CPU priority: every thread of their JVMs at
 * nice 19, the working peer's at 0. An idle peer still runs its own background threads (RocketMQ's
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

    IdlePeers(List<Peer> peers) {
        this.peers = peers;
    }

    /** Gives {@code working} the normal priority and every other peer the lowest. */
    void working(Peer working) {
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
        List<String> command = new ArrayList<>(List.of("renice", "-n", Integer.toString(value), "-p"));
        for (long pid : peer.pids()) {
            command.addAll(threads(pid));
        }
        if (command.size() == 4) {
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
