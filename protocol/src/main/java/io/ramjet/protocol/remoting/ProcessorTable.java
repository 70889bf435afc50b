package io.ramjet.protocol.remoting;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/** Processors by command code, shared by the connections of one server or client. Thread-safe. */
public final class ProcessorTable {

    record Entry(AsyncRequestProcessor processor, Executor executor) {
    }

    private final Map<Short, Entry> entries = new ConcurrentHashMap<>();

    public void register(short code, RequestProcessor processor, Executor executor) {
        Objects.requireNonNull(processor, "processor");
        registerAsync(code, (connection, request) ->
                CompletableFuture.completedFuture(processor.process(connection, request)), executor);
    }

    public void registerAsync(short code, AsyncRequestProcessor processor, Executor executor) {
        Objects.requireNonNull(processor, "processor");
        Objects.requireNonNull(executor, "executor");
        if (entries.putIfAbsent(code, new Entry(processor, executor)) != null) {
            throw new IllegalStateException("a processor is already registered for code " + code);
        }
    }

    Entry get(short code) {
        return entries.get(code);
    }
}
