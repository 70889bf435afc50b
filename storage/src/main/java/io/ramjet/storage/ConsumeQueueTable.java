package io.ramjet.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Every {@link ConsumeQueue} of the store, under {@code consumequeue/<destination>/<queue id>/}.
 *
 * <p>Threading: {@link #put} and the maintenance calls from the dispatcher (or, during
 * recovery, the opening thread) or the checkpoint thread as each says; lookups from any thread.
 * After a crash: each queue recovers itself against the checkpoint, see {@link ConsumeQueue}.
 */
final class ConsumeQueueTable implements ConsumeQueueWriter {

    private final Path directory;
    private final int entriesPerFile;
    private final long minFreeSpace;
    private final Map<QueueKey, ConsumeQueue> queues = new ConcurrentHashMap<>();

    ConsumeQueueTable(Path directory, int entriesPerFile, long minFreeSpace) {
        this.directory = directory;
        this.entriesPerFile = entriesPerFile;
        this.minFreeSpace = minFreeSpace;
        load();
    }

    private void load() {
        if (!Files.isDirectory(directory)) {
            return;
        }
        try (Stream<Path> destinations = Files.list(directory)) {
            for (Path destination : (Iterable<Path>) destinations::iterator) {
                String name = QueueKey.decodeDirectoryName(destination.getFileName().toString());
                try (Stream<Path> ids = Files.list(destination)) {
                    for (Path id : (Iterable<Path>) ids::iterator) {
                        QueueKey key = new QueueKey(name, Integer.parseInt(id.getFileName().toString()));
                        queues.put(key, new ConsumeQueue(id, entriesPerFile, minFreeSpace));
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            throw new StoreException("cannot load ConsumeQueues from " + directory, e);
        }
    }

    /** The queue, or null if nothing was ever put in it. */
    ConsumeQueue find(String destination, int queueId) {
        return queues.get(new QueueKey(destination, queueId));
    }

    @Override
    public boolean put(String destination, int queueId, long queueOffset, long physicalOffset, int size,
                       long tagSignature) {
        QueueKey key = new QueueKey(destination, queueId);
        ConsumeQueue queue = queues.computeIfAbsent(key, k -> new ConsumeQueue(
                directory.resolve(k.directoryName()).resolve(Integer.toString(k.queueId())),
                entriesPerFile, minFreeSpace));
        return queue.put(queueOffset, physicalOffset, size, tagSignature);
    }

    boolean isEmpty() {
        return queues.isEmpty();
    }

    void recover(long checkpoint, ConsumeQueue.CommittedHalfCheck halves) {
        queues.values().forEach(q -> q.recover(checkpoint, halves));
    }

    void flush() {
        queues.values().forEach(ConsumeQueue::flush);
    }

    void close() {
        queues.values().forEach(ConsumeQueue::close);
    }

    int deleteFilesBelow(long physicalOffset) {
        return queues.values().stream().mapToInt(q -> q.deleteFilesBelow(physicalOffset)).sum();
    }
}
