package io.ramjet.bench.peer;

import io.ramjet.bench.workload.Workloads;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A running broker under test, in JVMs of its own, and the client that drives it. */
public interface Peer extends AutoCloseable {

    /** The column name: ramjet, artemis or rocketmq. */
    String name();

    /** A client for the workloads, with the given numbers of producer and consumer threads. */
    Workloads workloads(int producers, int consumers) throws Exception;

    /** The heap in use after a full collection in the broker's JVM that holds the backlog, in bytes. */
    long liveHeapBytes() throws IOException;

    /** The bytes the data directory of that broker takes on disk, as {@code du} counts them. */
    long diskBytes() throws IOException;

    /** Resident set size of that JVM, in bytes. */
    long residentBytes();

    /** The process ids of the peer's JVMs. */
    List<Long> pids();

    /** The peer's broker JVMs, the primary first; none for a peer that is not in child JVMs. */
    default List<PeerProcess> processes() {
        return List.of();
    }

    /**
     * The settings the peer's JVMs stated when they started (journal type, buffer timeout, Netty,
     * JVM arguments...), each name prefixed
     * with its JVM where the peer has several.
     */
    default Map<String, String> settings() {
        Map<String, String> all = new LinkedHashMap<>();
        List<PeerProcess> jvms = processes();
        for (int i = 0; i < jvms.size(); i++) {
            String prefix = jvms.size() == 1 ? "" : "JVM " + (i + 1) + " (" + jvms.get(i).name() + ") ";
            jvms.get(i).settings().forEach((k, v) -> all.put(prefix + k, v));
        }
        return all;
    }

    /** False once a broker JVM of this peer has exited. */
    boolean isAlive();

    /** Stops the broker JVMs and deletes their data. */
    @Override
    void close() throws IOException;
}
