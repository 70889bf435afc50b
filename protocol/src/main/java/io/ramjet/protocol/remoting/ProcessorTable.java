package io.ramjet.protocol.remoting;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/** Processors by command code, shared by the connections of one server or client. Thread-safe. */
public final class ProcessorTable {

    /** @param inOrder whether one connection's requests start in the order they arrived */
    record Entry(AsyncRequestProcessor processor, Executor executor, boolean inOrder) {
    }

    private final Map<Short, Entry> entries = new ConcurrentHashMap<>();

    public void register(short code, RequestProcessor processor, Executor executor) {
        Objects.requireNonNull(processor, "processor");
        registerAsync(code, (connection, request) ->
                CompletableFuture.completedFuture(processor.process(connection, request)), executor);
    }

    public void registerAsync(short code, AsyncRequestProcessor processor, Executor executor) {
        register(code, new Entry(processor, executor, false));
    }

    /**
     * As {@link #registerAsync}, but one connection's requests of this code are processed one at
     * a time, each started once the one that arrived before it has returned from
     * {@link AsyncRequestProcessor#process} (its answer may come later): for requests whose
     * order matters, such as a consumer's pulls.
     */
    public void registerInOrder(short code, AsyncRequestProcessor processor, Executor executor) {
        register(code, new Entry(processor, executor, true));
    }

    private void register(short code, Entry entry) {
        Objects.requireNonNull(entry.processor(), "processor");
        Objects.requireNonNull(entry.executor(), "executor");
        if (entries.putIfAbsent(code, entry) != null) {
            throw new IllegalStateException("a processor is already registered for code " + code);
        }
    }

    Entry get(short code) {
        return entries.get(code);
    }
}
