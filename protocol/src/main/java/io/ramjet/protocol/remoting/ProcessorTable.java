package io.ramjet.protocol.remoting;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/** Processors by command code, shared by the connections of one server or client. Thread-safe. */
public final class ProcessorTable {

    /**
     * @param executor  where each request runs, chosen with its connection; null for an in-order command
     * @param inOrderOn where an in-order command's lanes run ({@link #registerInOrder}); null otherwise
     */
    record Entry(AsyncRequestProcessor processor, RequestExecutor executor, Executor inOrderOn) {
    }

    private final Map<Short, Entry> entries = new ConcurrentHashMap<>();

    public void register(short code, RequestProcessor processor, Executor executor) {
        Objects.requireNonNull(processor, "processor");
        registerAsync(code, (connection, request) ->
                CompletableFuture.completedFuture(processor.process(connection, request)), executor);
    }

    public void registerAsync(short code, AsyncRequestProcessor processor, Executor executor) {
        Objects.requireNonNull(executor, "executor");
        register(code, new Entry(processor, (connection, processing) -> executor.execute(processing), null));
    }

    /**
     * As {@link #registerAsync}, but {@code executor} decides for each request, on the
     * connection's I/O thread, whether it runs there at once or on another thread of its own.
     */
    public void registerWithConnection(short code, AsyncRequestProcessor processor, RequestExecutor executor) {
        Objects.requireNonNull(executor, "executor");
        register(code, new Entry(processor, executor, null));
    }

    /**
     * As {@link #registerAsync}, but one connection's requests of this code are processed one at
     * a time, each started once the one that arrived before it has returned from
     * {@link AsyncRequestProcessor#process} (its answer may come later): for requests whose
     * order matters, such as a consumer's pulls.
     */
    public void registerInOrder(short code, AsyncRequestProcessor processor, Executor executor) {
        Objects.requireNonNull(executor, "executor");
        register(code, new Entry(processor, null, executor));
    }

    private void register(short code, Entry entry) {
        Objects.requireNonNull(entry.processor(), "processor");
        if (entries.putIfAbsent(code, entry) != null) {
            throw new IllegalStateException("a processor is already registered for code " + code);
        }
    }

    Entry get(short code) {
        return entries.get(code);
    }
}
