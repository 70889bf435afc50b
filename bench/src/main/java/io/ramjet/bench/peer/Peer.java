package io.ramjet.bench.peer;

import io.ramjet.bench.Workloads;
import java.io.IOException;
import java.util.List;

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

    /** False once a broker JVM of this peer has exited. */
    boolean isAlive();

    /** Stops the broker JVMs and deletes their data. */
    @Override
    void close() throws IOException;
}
